import { setMaxListeners } from 'node:events';
import { ApplicationFailure } from '@temporalio/common';
import type { JudgeUsage, RunJudge } from '../../db/tables/eval-run.table';
import type { CachedJudgeReply } from '../../db/tables/judge-verdict-cache.table';
import { resolveWorkspaceJudge } from '../../db/judge-resolution';
import { RUN_FAILURE, providerNotConnectedMessage } from '../../domain/eval/run-failures';
import {
  parseMatchVerdict,
  parseRubricVerdicts,
  type MatchVerdict,
  type RubricVerdict,
} from '../../domain/scoring/judge-output.parser';
import { finalResponsePrompt, rubricsPrompt, type JudgeMessage } from '../../domain/scoring/judge-prompts';
import { LIMITS } from '../../domain/limits';
import { ProviderCallError, type JsonChatReply } from '../../lib/llm/provider-client';
import type { ActivityDeps } from '../platform/activity-deps';
import { budgetedFetch, JudgeCallBoundReached, type BudgetedFetch, type JudgedCase } from './judge-call-budget';
import { judgeCallSpan, type JudgeCall } from './judge-call-span';
import {
  createJudgeConnections,
  requireAllowedEndpoint,
  withCaseFetch,
  type JudgeConnection,
} from './judge-connections.service';
import { measuredJudgeCall } from './judge-metrics';
import { verdictCache, type JudgeCacheCounts, type VerdictCache } from './judge-verdict-cache.service';
import { connectProvider } from '../platform/provider-connection';

type Parse<T> = (content: string) => T | null;

// A reply that cannot be parsed is asked again; after this many unusable replies the sample counts as no verdict.
const PARSE_ATTEMPTS = 3;

/** Where a criterion's samples start: sample i is the case's sample `sampleOffset + i` (repeat r starts at r × samples). */
export interface SampleOffset {
  sampleOffset?: number;
}

/** The judge of one case: sampled verdicts per criterion and the token usage of every call made. */
export interface JudgeSession {
  sampleMatch(
    input: { userInput: string; expected: string; actual: string } & SampleOffset,
    samples: number,
  ): Promise<Array<MatchVerdict | null>>;
  sampleRubrics(
    input: { userInput: string; response: string; rubrics: readonly string[] } & SampleOffset,
    samples: number,
  ): Promise<Array<RubricVerdict[] | null>>;
  usage(): JudgeUsage;
  /** The samples the verdict cache answered and those it did not; both 0 when the run opted out (`no_cache`). */
  cache(): JudgeCacheCounts;
}

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
 * database or vault round trip in the steady state (see judge-connections.ts).
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

interface SessionEndpoint {
  /** Replaced when a refused key is read afresh. */
  connection: JudgeConnection;
  /** After a refused key: the integration read afresh, or null when it holds the same key (the refusal stands). */
  renew(rejected: JudgeConnection): Promise<JudgeConnection | null>;
}

function openSession(
  endpoint: SessionEndpoint,
  { provider, model, call }: { provider: RunJudge['provider']; model: string; call: JudgeCall },
  budget: BudgetedFetch,
  signal: AbortSignal,
  cache: VerdictCache | null,
): JudgeSession {
  let renewed = false;
  const cached: JudgeCacheCounts = { hits: 0, misses: 0 };
  const usage: JudgeUsage = { calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let lastFailure: string | null = null;

  // A transient failure (after the SDK's own retries) is asked again without using up a parse attempt: the case's
  // budget of judge calls, not a count here, decides when to stop.
  const chat = async (messages: JudgeMessage[]): Promise<JsonChatReply> => {
    for (;;) {
      const callsBefore = budget.calls();
      try {
        const { client } = endpoint.connection;
        return await call(() =>
          measuredJudgeCall(provider, () =>
            withCaseFetch(budget.fetch, () => client.chatJson({ model, messages, signal })),
          ),
        );
      } catch (error) {
        const refusal = budget.refusal();
        if (refusal instanceof JudgeCallBoundReached) throw new JudgeCallBoundReached(lastFailure, refusal.bound);
        if (refusal) throw refusal;
        // The key may have been rotated since it was cached: one fresh read per case before the refusal ends the run.
        if (error instanceof ProviderCallError && error.kind === 'auth' && !renewed) {
          renewed = true;
          const fresh = await endpoint.renew(endpoint.connection);
          if (fresh) {
            endpoint.connection = fresh;
            continue;
          }
        }
        // Asking again is only safe when the failed ask reached the network: then it spent budget, so this ends.
        const spent = budget.calls() > callsBefore;
        if (!spent || signal.aborted || !(error instanceof ProviderCallError) || error.kind !== 'transient')
          throw error;
        lastFailure = error.message;
      }
    }
  };

  // Only a usable reply is cached (`key` set unless the run opted out).
  const ask = async <T>(messages: JudgeMessage[], parse: Parse<T>, key: string | null): Promise<T | null> => {
    for (let attempt = 0; attempt < PARSE_ATTEMPTS; attempt++) {
      const reply = await chat(messages);
      usage.calls++;
      usage.prompt_tokens += reply.usage.prompt_tokens;
      usage.completion_tokens += reply.usage.completion_tokens;
      usage.total_tokens += reply.usage.total_tokens;
      const parsed = parse(reply.content);
      if (parsed !== null) {
        if (cache && key) await cache.store(key, { content: reply.content, usage: reply.usage });
        return parsed;
      }
      lastFailure = 'the reply held no usable verdict';
    }
    return null;
  };

  // Sample i of a call is the absolute sample `offset + i`: a cached one costs no call (and no usage).
  const sample = async <T>(messages: JudgeMessage[], offset: number, samples: number, parse: Parse<T>) => {
    const keys = Array.from({ length: samples }, (_, i) => cache?.key(messages, offset + i) ?? null);
    const hits = cache ? await cache.lookup(keys.filter((key) => key !== null)) : new Map<string, CachedJudgeReply>();
    const results: Array<T | null> = [];
    for (const key of keys) {
      const hit = key ? hits.get(key) : undefined;
      const verdict = hit ? parse(hit.content) : null;
      if (cache) cached[verdict !== null ? 'hits' : 'misses']++;
      results.push(verdict ?? (await ask(messages, parse, key)));
    }
    return results;
  };

  return {
    sampleMatch: (input, samples) =>
      sample(finalResponsePrompt(input), input.sampleOffset ?? 0, samples, parseMatchVerdict),
    sampleRubrics: (input, samples) =>
      sample(rubricsPrompt(input), input.sampleOffset ?? 0, samples, (content) =>
        parseRubricVerdicts(content, input.rubrics.length),
      ),
    usage: () => ({ ...usage }),
    cache: () => ({ ...cached }),
  };
}
