import { setMaxListeners } from 'node:events';
import { ApplicationFailure } from '@temporalio/common';
import type { RunJudge } from '../../db/tables/eval-run.table';
import { resolveWorkspaceJudge } from '../../db/judge-resolution';
import { RUN_FAILURE, providerNotConnectedMessage } from '../../domain/eval/run-failures';
import { LIMITS } from '../../domain/limits';
import type { ActivityDeps } from '../platform/activity-deps';
import { budgetedFetch, type JudgedCase } from './judge-call-budget';
import { judgeCallSpan } from './judge-call-span';
import { createJudgeConnections, requireAllowedEndpoint } from './judge-connections.service';
import { verdictCache } from './judge-verdict-cache.service';
import { connectProvider } from '../platform/provider-connection';
import { openSession, type JudgeSession, type SessionEndpoint } from './judge-session';

/** What the judge needs to know about a run. */
export interface JudgedRun {
  workspace_id: string;
  agent_id: string;
  judge: RunJudge | null;
  /** The run opted out of the judge verdict cache. */
  no_cache?: boolean;
}

/** The judge as activities use it: resolved once per run at preflight, then opened per case. */
export interface Judge {
  /** Resolves the run's judge; `agentModel` is the model preflight resolved for the agent (a live run's pinned one). */
  resolveForRun(run: JudgedRun, agentModel: string): Promise<RunJudge>;
  open(run: JudgedRun, judged: JudgedCase, signal?: AbortSignal): Promise<JudgeSession>;
}

/**
 * Builds the judge on the worker's dependencies; every call goes through the egress guard with the workspace's key.
 * A run's connection (key, base URL, egress verdict, client) is cached on the worker, so opening a case costs no
 * database or vault round trip in the steady state (see judge-connections.service.ts).
 */
export function createJudge(deps: ActivityDeps): Judge {
  const guard = deps.egress;
  const connections = createJudgeConnections(deps);

  return {
    async resolveForRun(run, agentModel) {
      const resolved = await resolveWorkspaceJudge(deps.db, run.workspace_id, agentModel);
      if ('error' in resolved) throw ApplicationFailure.nonRetryable(resolved.error, RUN_FAILURE.judgeUnresolvable);
      // Reads the key inside the activity: it never travels through workflow arguments or history.
      const notConnected = providerNotConnectedMessage(resolved.provider, resolved.model);
      const { baseUrl } = await connectProvider(deps, run.workspace_id, resolved.provider, notConnected);
      await requireAllowedEndpoint(guard, resolved.provider, baseUrl);
      return { provider: resolved.provider, model: resolved.model, source: resolved.source };
    },

    async open(run, judged, signal) {
      if (!run.judge) throw ApplicationFailure.nonRetryable('the run resolved no judge', RUN_FAILURE.judgeUnresolvable);
      const judge = run.judge;
      const connection = await connections.get(judged.runId, run.workspace_id, judge);
      // Aborted by the activity's cancellation, or by the budget once the case's calls are spent.
      const controller = new AbortController();
      // The SDK adds an abort listener per HTTP attempt and never removes it; the budget bounds how many there are.
      setMaxListeners((judged.bound ?? LIMITS.judgeCallsPerCase) + 1, controller.signal);
      if (signal?.aborted) controller.abort();
      signal?.addEventListener('abort', () => controller.abort(), { once: true });
      const endpoint: SessionEndpoint = {
        connection,
        renew: (rejected) => connections.renew(judged.runId, run.workspace_id, judge, rejected),
      };
      // The budget is reserved first, so a permit of the key's limiter is held only while the provider works.
      const budget = budgetedFetch(deps, judged, (url, init) => endpoint.connection.fetch(url, init), controller);
      const cache = run.no_cache
        ? null
        : verdictCache(deps, run.workspace_id, judge, () => endpoint.connection.baseUrl);
      const call = judgeCallSpan(deps.tracing?.tracer, judge, judged);
      return openSession(
        endpoint,
        { provider: judge.provider, model: judge.model, call },
        budget,
        controller.signal,
        cache,
      );
    },
  };
}
