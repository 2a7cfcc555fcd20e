import { CRITERION_KEYS, type CriterionKey, type CriterionResult } from './criteria';
import type { CaseStatus } from './case-outcome';

/** The part of a case outcome the run summary reads (a stored case result row maps onto it). */
export interface SummarizableCase {
  status: CaseStatus;
  criteria: ReadonlyArray<Pick<CriterionResult, 'criterion' | 'score' | 'applicable'>>;
}

/**
 * The run summary: pass rate over all cases, average score per criterion where it applied (every criterion key is
 * listed; null where it never applied), and counts.
 */
export interface RunSummary {
  pass_rate: number;
  avg_score: Record<CriterionKey, number | null>;
  counts: { total: number; passed: number; failed: number; error: number };
  /** A cancelled run only: how many of its cases got no result before it stopped. */
  not_scored?: number;
}

/**
 * Summarises a run: `pass_rate` = passed ÷ all cases (0 for an empty run); `avg_score` averages each criterion
 * over the entries where it applied, so not-applicable and unscored (errored) criteria are left out; every
 * criterion key is listed, null when the criterion never applied. Nothing is rounded.
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
  const avg_score = Object.fromEntries(
    CRITERION_KEYS.map((criterion) => {
      const sum = sums.get(criterion);
      return [criterion, sum ? sum.total / sum.count : null];
    }),
  ) as Record<CriterionKey, number | null>;
  return { pass_rate: counts.total === 0 ? 0 : counts.passed / counts.total, avg_score, counts };
}

/** A cancelled run's summary: `not_scored` counts the run's cases that have no result (never below zero). */
export function withNotScored(summary: RunSummary, runCases: number): RunSummary {
  return { ...summary, not_scored: Math.max(0, runCases - summary.counts.total) };
}
