import { z } from 'zod';
import { ADK_CRITERIA, type Unsupported } from './adk-config';
import { adkObject } from './adk-schema';
import { issuesAt, type FieldProblem } from '../field-problems';
import { LIMITS } from '../limits';
import type { CaseStatus } from '../scoring/case-outcome';
import type { CriterionKey, MinScores } from '../scoring/criteria';

// ADK's EvalStatus values (eval_metrics.py): 4, INFORMATIONAL, only on metrics that never pass or fail.
const STATUS_NAMES = ['PASSED', 'FAILED', 'NOT_EVALUATED', 'INFORMATIONAL'] as const;
const evalStatus = z.number().int().min(1).max(4);
const metricResult = adkObject({
  metric_name: z.string().max(200),
  threshold: z.number().nullish(),
  score: z.number().nullish(),
  eval_status: evalStatus,
});
const caseResult = adkObject({
  eval_id: z.string().min(1).max(200),
  final_eval_status: evalStatus,
  overall_eval_metric_results: z.array(metricResult).max(100),
});

/** ADK's `EvalSetResult` (`*.evalset_result.json`), either casing; per-invocation results and sessions are not read. */
export const adkEvalSetResultSchema = adkObject({
  eval_set_result_id: z.string().max(400),
  eval_set_id: z.string().max(400),
  eval_case_results: z.array(caseResult).max(LIMITS.casesPerEvalSet),
});

/** One metric of a case as Assay stores a criterion. */
export interface ImportedCriterion {
  score: number;
  min_score: number | null;
  passed: boolean;
  applicable: boolean;
  detail: { adk_metric: string; eval_status: (typeof STATUS_NAMES)[number] };
}

/** One case of an ADK result: its verdict as ADK gave it and its metrics Assay has a criterion for. */
export interface ImportedCase {
  eval_id: string;
  status: CaseStatus;
  criteria: Partial<Record<CriterionKey, ImportedCriterion>>;
}

/** An ADK result read: its id, its cases, the thresholds it scored at, and the metrics Assay has no criterion for. */
export interface ImportedResult {
  eval_set_result_id: string;
  cases: ImportedCase[];
  min_scores: Partial<MinScores>;
  unsupported: Unsupported[];
}

/** ADK's final verdict of a case as a case status: not evaluated is `skipped`, as Assay reports a case it did not score. */
const CASE_STATUS: Readonly<Record<number, CaseStatus>> = { 1: 'passed', 2: 'failed', 3: 'skipped', 4: 'skipped' };

/** Why a case ADK did not evaluate is `skipped`. */
export const NOT_EVALUATED_REASON = 'ADK did not evaluate it (NOT_EVALUATED)';

// ADK wrote the document itself, or (ADK 1.x) a JSON string holding it: both are read, as ADK's own reader does.
function decoded(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/**
 * Reads an ADK `EvalSetResult` in either encoding into per-case verdicts: each case's status is ADK's
 * `final_eval_status`, each metric with an Assay counterpart a criterion carrying ADK's score, threshold and status.
 */
export function readAdkResult(body: unknown): ImportedResult | { problems: FieldProblem[] } {
  const parsed = adkEvalSetResultSchema.safeParse(decoded(body));
  if (!parsed.success) return { problems: issuesAt('', parsed.error) };
  const min_scores: Partial<MinScores> = {};
  const unsupported = new Map<string, Unsupported>();
  const cases = parsed.data.eval_case_results.map((result): ImportedCase => {
    const criteria: ImportedCase['criteria'] = {};
    for (const metric of result.overall_eval_metric_results) {
      const key = ADK_CRITERIA[metric.metric_name];
      if (!key) {
        unsupported.set(metric.metric_name, {
          criterion: metric.metric_name,
          reason: metricReason(metric.eval_status),
        });
        continue;
      }
      if (typeof metric.threshold === 'number') min_scores[key] = metric.threshold;
      criteria[key] = {
        score: metric.score ?? 0,
        min_score: metric.threshold ?? null,
        passed: metric.eval_status !== 2,
        applicable: metric.eval_status === 1 || metric.eval_status === 2,
        detail: { adk_metric: metric.metric_name, eval_status: STATUS_NAMES[metric.eval_status - 1] },
      };
    }
    return { eval_id: result.eval_id, status: CASE_STATUS[result.final_eval_status], criteria };
  });
  return {
    eval_set_result_id: parsed.data.eval_set_result_id,
    cases,
    min_scores,
    unsupported: [...unsupported.values()],
  };
}

function metricReason(status: number): string {
  return status === 4
    ? 'informational in ADK (never passes or fails): Assay reports its own efficiency figures on the cases it scores'
    : 'a metric Assay has no criterion for';
}
