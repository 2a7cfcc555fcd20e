import { CRITERION_KEYS, type CriterionKey, type CriterionResult } from './criteria';
import type { CaseStatus } from './case-outcome';
import { summarizeCost, type CaseCost, type RunCost } from './run-cost';

/** The part of a case outcome the run summary reads (a stored case result row maps onto it). */
export interface SummarizableCase {
  status: CaseStatus;
  criteria: ReadonlyArray<Pick<CriterionResult, 'criterion' | 'score' | 'applicable'>>;
  cost?: CaseCost | null;
}

/** The run summary: pass rate over all cases, average score per criterion where it applied, and counts. */
export interface RunSummary {
  pass_rate: number;
  avg_score: Partial<Record<CriterionKey, number>>;
  counts: { total: number; passed: number; failed: number; error: number };
  /** What the run cost in USD, judge and agent apart (see `summarizeCost`); absent on summaries stored before it. */
  cost?: RunCost;
  /** A cancelled run only: how many of its cases got no result before it stopped. */
  not_scored?: number;
}

/**
 * Summarises a run: `pass_rate` = passed ÷ all cases (0 for an empty run); `avg_score` averages each criterion
 * over the entries where it applied, so not-applicable and unscored (errored) criteria are left out, and a
 * criterion that never applied is absent; `cost` sums the cases' costs. Nothing is rounded.
 */
export function summarizeRun(cases: readonly SummarizableCase[]): RunSummary {
  const counts = { total: cases.length, passed: 0, failed: 0, error: 0 };
  const sums = new Map<CriterionKey, { total: number; count: number }>();
  for (const outcome of cases) {
    counts[outcome.status]++;
    for (const result of outcome.criteria) {
      if (!result.applicable) continue;
      const sum = sums.get(result.criterion) ?? { total: 0, count: 0 };
      sums.set(result.criterion, { total: sum.total + result.score, count: sum.count + 1 });
    }
  }
  const avg_score: Partial<Record<CriterionKey, number>> = {};
  for (const criterion of CRITERION_KEYS) {
    const sum = sums.get(criterion);
    if (sum) avg_score[criterion] = sum.total / sum.count;
  }
  const pass_rate = counts.total === 0 ? 0 : counts.passed / counts.total;
  return { pass_rate, avg_score, counts, cost: summarizeCost(cases.map((outcome) => outcome.cost)) };
}

/** A cancelled run's summary: `not_scored` counts the run's cases that have no result (never below zero). */
export function withNotScored(summary: RunSummary, runCases: number): RunSummary {
  return { ...summary, not_scored: Math.max(0, runCases - summary.counts.total) };
}
