import { listRunCases, runCaseScope } from '../../db/run-cases.repository';
import { requireAgentEvalRun } from '../eval-lookups';
import { route, type RouteSpec } from '../route';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { evalCaseJson, toEvalCaseJson } from '../json/eval-case.json';

/** The cases an eval run scores (its set's cases as of the trigger), so a client can show each one before its result. */
export const evalRunCaseRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-runs/:evalRun/cases',
    summary: 'The cases an eval run scores, in case order',
    tag: 'evaluation',
    permission: 'evals:view',
    query: pageQuery,
    response: dataPageJson(evalCaseJson),
    handler: async ({ params, query, auth, deps }) => {
      const run = await requireAgentEvalRun(deps.db, auth.workspaceId, params);
      return dataPage(query, (page) => listRunCases(deps.db, runCaseScope(run), page), toEvalCaseJson);
    },
  }),
];
