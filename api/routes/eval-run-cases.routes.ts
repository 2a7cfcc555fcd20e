import { z } from 'zod';
import { listRunCases } from '../../db/run-cases.repository';
import { requireAgentEvalRun } from '../eval-lookups';
import { route, type RouteSpec } from '../route';
import { evalCaseJson, toEvalCaseJson } from './eval-cases.routes';

/** The cases an eval run scores (its set's cases as of the trigger), so a client can show each one before its result. */
export const evalRunCaseRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-runs/:evalRun/cases',
    summary: 'The cases an eval run scores, in case order',
    tag: 'evaluation',
    permission: 'evals:view',
    response: z.object({ data: z.array(evalCaseJson) }),
    handler: async ({ params, auth, deps }) => {
      const run = await requireAgentEvalRun(deps.db, auth.workspaceId, params);
      const cases = await listRunCases(deps.db, { evalSetId: run.eval_set_id, asOf: run.created_at });
      return { data: cases.map(toEvalCaseJson) };
    },
  }),
];
