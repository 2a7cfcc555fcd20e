import { z } from 'zod';
import { findEvalRunById, insertEvalRun } from '../../db/eval-run.repository';
import { countRunCases, runCaseScope } from '../../db/run-cases.repository';
import { FINAL_EVAL_RUN_STATUSES, type EvalRun } from '../../db/tables/eval-run.table';
import { requireRunnableAgent } from '../agent-run-errors';
import { requireAgentEvalRun, requireAgentEvalSet } from '../eval-lookups';
import { evalRunJson, toEvalRunJson } from '../json/eval-run.json';
import { HttpError } from '../http-error';
import { requireAgent } from '../lookups';
import { route, type RouteSpec } from '../route';
import { cancelEvalRunWorkflow, startEvalRun } from '../workflow-starts';

const hasEnded = (run: EvalRun): boolean => FINAL_EVAL_RUN_STATUSES.includes(run.status);

// Both actions change a run's course: a POST without a body, answered with a run; 409 for the wrong state.
const runAction = {
  method: 'post',
  errors: [409, 503],
  tag: 'evaluation',
  permission: 'evals:manage',
  response: z.object({ data: evalRunJson }),
} as const;

/** Eval run actions: cancel a queued or running run; re-score the cases an ended run left `error`, as a new run. */
export const evalRunActionRoutes: RouteSpec[] = [
  route({
    ...runAction,
    path: '/api/ai-agents/:agent/eval-runs/:evalRun/cancel',
    summary:
      'Cancel a queued or running eval run (202): it ends `cancelled` shortly after, keeping the results it stored; ' +
      'its summary counts the cases left `not_scored`',
    status: 202,
    handler: async ({ params, auth, deps }) => {
      const run = await requireAgentEvalRun(deps.db, auth.workspaceId, params);
      if (hasEnded(run))
        throw new HttpError(409, 'run_ended', `the run has already ended ${run.status}`, { status: run.status });
      await cancelEvalRunWorkflow(deps, run.id);
      return { data: toEvalRunJson((await findEvalRunById(deps.db, run.id)) ?? run) };
    },
  }),
  route({
    ...runAction,
    path: '/api/ai-agents/:agent/eval-runs/:evalRun/retry-errors',
    resource: 'eval-runs',
    summary:
      'Re-score the cases an ended eval run left `error`, as a new run of the same set and settings (`retry_of`)',
    status: 201,
    handler: async ({ params, auth, deps }) => {
      const run = await requireAgentEvalRun(deps.db, auth.workspaceId, params);
      if (!hasEnded(run))
        throw new HttpError(409, 'run_not_ended', `the run is still ${run.status}`, { status: run.status });
      // The cases of `run` that ended `error` (the scope of a retry of it, counted before the retry exists).
      const cases = await countRunCases(deps.db, { ...runCaseScope(run), retryOf: run.id });
      if (cases === 0) throw new HttpError(409, 'no_error_cases', 'no case of the run ended error');
      if (run.mode === 'live')
        await requireRunnableAgent(deps.db, await requireAgent(deps.db, auth.workspaceId, params.agent));
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, { agent: params.agent, set: run.eval_set_id });
      const retry = await insertEvalRun(deps.db, set, {
        mode: run.mode,
        run_selection: run.run_selection,
        conversations: run.conversations,
        min_scores: run.min_scores,
        judge_samples: run.judge_samples,
        repeats: run.repeats,
        min_repeat_pass: run.min_repeat_pass,
        tags: run.tags,
        retry_of: run.id,
        no_cache: run.no_cache,
      });
      await startEvalRun(deps, retry, { agent: params.agent, set: set.name, cases });
      return { data: toEvalRunJson(retry) };
    },
  }),
];
