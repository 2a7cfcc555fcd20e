import { z } from 'zod';
import { isUuid } from '../../db/column-values';
import type { Db } from '../../db/database';
import { findEvalRun } from '../../db/eval-run.repository';
import { sortedPage, type SortKey } from '../../db/keyset-page';
import { findKeywordBaseline, listComparedResults, listTrajectoryDetails } from '../../db/run-comparison.repository';
import { withTrajectoryDiffs } from '../../domain/eval/trajectory-diff';
import { efficiencyComparison, withEfficiencyDeltas } from '../../domain/eval/efficiency-delta';
import { FINAL_EVAL_RUN_STATUSES, type EvalRun } from '../../db/tables/eval-run.table';
import { caseOrderKey, compareOrderKeys, compareRuns } from '../../domain/eval/run-comparison';
import {
  DEFAULT_ALPHA,
  judgeComparison,
  REGRESSION_MODES,
  type JudgedCaseComparison,
} from '../../domain/eval/comparison-statistics';
import { parseBaselineRef, type BaselineRef } from '../../domain/eval/run-tags';
import { requireAgentEvalRun } from '../eval-lookups';
import { invalidField } from '../field-errors';
import { HttpError } from '../http-error';
import { dataPage, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';
import { runComparisonJson } from '../json/run-comparison.json';

const compareQuery = pageQuery.extend({
  baseline: z.string().min(1).max(200).meta({
    description:
      'The run to compare with: a run id of the same eval set, `last-completed` (the newest completed run of the set created before this one) or `tag:<name>` (the newest completed run of the set carrying the tag, other than this one).',
  }),
  fail_on_regression: z.enum(REGRESSION_MODES).default('any').meta({
    description:
      '`summary.regression.failed` is true: `any` when a case regressed; `significant` when the exact McNemar test on the cases both runs scored is below `alpha` with more cases worse than better.',
  }),
  alpha: z.coerce.number().gt(0).lt(1).default(DEFAULT_ALPHA).meta({
    description: 'The significance level of `fail_on_regression=significant`, above 0 and below 1.',
  }),
});

// Cases page by their comparison order; the cursor holds (transition rank, case name, case id).
const CASE_ORDER = {
  keys: [
    { ref: 'rank', kind: 'text' },
    { ref: 'case_name', kind: 'text' },
    { ref: 'case_id', kind: 'uuid' },
  ] satisfies SortKey[],
  keyOf: caseOrderKey,
  compare: compareOrderKeys,
};

function requireEnded(run: EvalRun, which: 'run' | 'baseline'): void {
  if (FINAL_EVAL_RUN_STATUSES.includes(run.status)) return;
  throw new HttpError(409, 'run_not_ended', `the ${which} run is still ${run.status}: compare it once it has ended`, {
    run_id: run.id,
    status: run.status,
  });
}

// A run id must name a run of the same set (422 otherwise); a keyword that finds no run is a 404.
async function resolveBaseline(db: Db, run: EvalRun, ref: BaselineRef, value: string): Promise<EvalRun> {
  if (ref.kind !== 'run') {
    const found = await findKeywordBaseline(db, run, ref);
    if (found) return found;
    const what = ref.kind === 'tag' ? `carrying tag ${ref.tag}` : 'created before this one';
    throw new HttpError(404, 'baseline_not_found', `no completed run of this eval set ${what}`, { baseline: value });
  }
  if (!isUuid(ref.id)) throw invalidField('baseline', 'must be a run id, "last-completed" or "tag:<name>"');
  const found = await findEvalRun(db, run.agent_id, ref.id);
  if (!found || found.eval_set_id !== run.eval_set_id) throw invalidField('baseline', 'is not a run of this eval set');
  return found;
}

/** Compares an eval run with a baseline run of the same set: per-case transitions and score deltas, and a summary. */
export const evalRunCompareRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-runs/:evalRun/compare',
    summary:
      'Compare an eval run with a baseline run of its set: per-case transitions (regressed first) and score deltas',
    errors: [409],
    tag: 'evaluation',
    permission: 'evals:view',
    query: compareQuery,
    response: z.object({ data: runComparisonJson }),
    handler: async ({ params, query, auth, deps }) => {
      const run = await requireAgentEvalRun(deps.db, auth.workspaceId, params);
      const { baseline: value, fail_on_regression: mode, alpha } = query as z.infer<typeof compareQuery>;
      const ref = parseBaselineRef(value);
      if ('error' in ref) throw invalidField('baseline', ref.error);
      requireEnded(run, 'run');
      const baseline = await resolveBaseline(deps.db, run, ref, value);
      requireEnded(baseline, 'baseline');
      const [results, baselineResults] = await Promise.all([
        listComparedResults(deps.db, run.id),
        listComparedResults(deps.db, baseline.id),
      ]);
      const { cases, ...judged } = judgeComparison(compareRuns(results, baselineResults), results, baselineResults, {
        seed: `${run.id}:${baseline.id}`,
        mode,
        alpha,
      });
      const page = await dataPage(
        query,
        async (params) => sortedPage(cases, CASE_ORDER, params),
        (entry: JudgedCaseComparison) => entry,
      );
      const regressed = page.data.filter((entry) => entry.transition === 'regressed').map((entry) => entry.case_id);
      const [runDetails, baselineDetails] = await Promise.all([
        listTrajectoryDetails(deps.db, run.id, regressed),
        listTrajectoryDetails(deps.db, baseline.id, regressed),
      ]);
      return {
        data: {
          run_id: run.id,
          baseline_run_id: baseline.id,
          ...judged,
          efficiency: efficiencyComparison(results, baselineResults),
          cases: withEfficiencyDeltas(
            withTrajectoryDiffs(page.data, runDetails, baselineDetails),
            results,
            baselineResults,
          ),
          next_cursor: page.next_cursor,
        },
      };
    },
  }),
];
