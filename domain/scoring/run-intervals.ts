import type { CaseStatus } from './case-outcome';
import type { CriterionKey } from './criteria';
import type { RunSummary, SummarizableCase } from './run-summary';
import { bootstrapMeanInterval, passAtK, passHatK, seedOf, wilsonInterval, type Interval } from './statistics';

/** pass@k and pass^k of a run of several repeats at one k: the means over its cases of each case's estimate. */
export interface PassAtK {
  k: number;
  pass_at_k: number;
  pass_hat_k: number;
}

/** A case's repeats as pass@k reads them: `n` repeats scored (an error counts as not passed), `c` of them passed. */
export function repeatTally(statuses: readonly CaseStatus[]): { n: number; c: number } {
  const scored = statuses.filter((status) => status !== 'skipped');
  return { n: scored.length, c: scored.filter((status) => status === 'passed').length };
}

/** pass@k and pass^k of one case for k = 1 … its repeats (empty for a case scored once or never). */
export function casePassAtK(statuses: readonly CaseStatus[]): PassAtK[] {
  const { n, c } = repeatTally(statuses);
  if (n < 2) return [];
  return Array.from({ length: n }, (_, i) => ({
    k: i + 1,
    pass_at_k: passAtK(n, c, i + 1) ?? 0,
    pass_hat_k: passHatK(n, c, i + 1) ?? 0,
  }));
}

/**
 * A run's pass@k and pass^k for k = 1 … `repeats`: each the mean over the cases scored `repeats` times of the case's
 * estimate (a case with fewer scored repeats, such as one skipped, is left out). Empty for a run of one repeat.
 */
export function runPassAtK(cases: ReadonlyArray<readonly CaseStatus[]>, repeats: number): PassAtK[] {
  const perCase = cases.filter((statuses) => repeatTally(statuses).n === repeats).map(casePassAtK);
  if (repeats < 2 || perCase.length === 0) return [];
  const mean = (k: number, key: 'pass_at_k' | 'pass_hat_k'): number =>
    perCase.reduce((sum, entries) => sum + entries[k - 1][key], 0) / perCase.length;
  return Array.from({ length: repeats }, (_, i) => ({
    k: i + 1,
    pass_at_k: mean(i + 1, 'pass_at_k'),
    pass_hat_k: mean(i + 1, 'pass_hat_k'),
  }));
}

/**
 * The summary with its 95% intervals: `pass_rate_interval` (Wilson, over the cases not skipped) and, per criterion in
 * `avg_score`, `avg_score_interval` (a bootstrap percentile interval of the mean over the cases where it applied,
 * seeded from the run id and the criterion key, so the same run always gives the same interval; null where the mean is).
 */
export function withIntervals(summary: RunSummary, cases: readonly SummarizableCase[], runId: string): RunSummary {
  const judged = summary.counts.total - (summary.counts.skipped ?? 0);
  const avg_score_interval: Partial<Record<CriterionKey, Interval | null>> = {};
  for (const key of Object.keys(summary.avg_score) as CriterionKey[]) {
    const scores = cases.flatMap((outcome) =>
      outcome.criteria.filter((entry) => entry.criterion === key && entry.applicable).map((entry) => entry.score),
    );
    avg_score_interval[key] = bootstrapMeanInterval(scores, seedOf(`${runId}:${key}`));
  }
  return { ...summary, pass_rate_interval: wilsonInterval(summary.counts.passed, judged), avg_score_interval };
}
