import { APPLIED_ONLY_KEYS, CRITERION_KEYS, type CriterionKey, type CriterionResult } from './criteria';
import type { CaseStatus } from './case-outcome';
import { isFlaky } from './case-repeats';
import { LIMITS } from '../limits';
import { summarizeCost, type CaseCost, type RunCost } from './run-cost';
import type { PassAtK } from './run-intervals';
import type { Interval } from './statistics';
import { countUnscored, type UnscoredCounts } from './unscored';

/** The part of a case outcome the run summary reads (a stored case result row maps onto it). */
export interface SummarizableCase {
  status: CaseStatus;
  criteria: ReadonlyArray<Pick<CriterionResult, 'criterion' | 'score' | 'applicable' | 'unscored'>>;
  /** Judge samples the verdict cache answered and those it did not (absent: none). */
  judge_cache?: { hits: number; misses: number };
  /** Runs of several repeats: the case and its flip rate (null when it was not repeated). */
  case_id?: string;
  name?: string;
  flip_rate?: number | null;
  cost?: CaseCost | null;
}

/** A case that passed in some repeats and not in others. */
export interface FlakyCase {
  case_id: string;
  name: string;
  flip_rate: number;
}

/**
 * The run summary: pass rate over all cases but the skipped ones, average score per criterion where it applied (every criterion key is
 * listed; null where it never applied), and counts.
 */
export interface RunSummary {
  pass_rate: number;
  /** Every criterion key but an opt-in or scenario one that never applied (`APPLIED_ONLY_KEYS`). */
  avg_score: Partial<Record<CriterionKey, number | null>>;
  /** `skipped` is present only when some case was skipped (read it as `?? 0`). */
  counts: { total: number; passed: number; failed: number; error: number; skipped?: number };
  /** Cases with an unscored criterion (the judge gave no usable verdict), and per criterion; only when some had. */
  unscored?: UnscoredCounts;
  /** Judge samples of the run's cases the verdict cache answered (no call made) and those it did not. */
  judge_cache: { hits: number; misses: number };
  /** What the run cost in USD, judge and agent apart (see `summarizeCost`); absent on summaries stored before it. */
  cost?: RunCost;
  /** A cancelled run only: how many of its cases got no result before it stopped. */
  not_scored?: number;
  /** Runs of several repeats only: the flaky cases (at most `flakyCasesListed`, most flaky first) and their count. */
  flaky?: FlakyCase[];
  flaky_count?: number;
  /** The Wilson 95% interval of `pass_rate` (null without cases judged); absent on summaries stored before it. */
  pass_rate_interval?: Interval | null;
  /** A bootstrap 95% interval of each `avg_score` mean (null where the mean is); absent on summaries stored before it. */
  avg_score_interval?: Partial<Record<CriterionKey, Interval | null>>;
  /** Runs of several repeats only: pass@k and pass^k for k = 1 … repeats. */
  pass_at_k?: PassAtK[];
}

/**
 * Summarises a run: `pass_rate` = passed ÷ cases not skipped (0 when there are none); `avg_score` averages each criterion
 * over the entries where it applied, so not-applicable and unscored (errored) criteria are left out; every
 * criterion key is listed (an opt-in one only once it applied), null when the criterion never applied. `judge_cache` sums the cases' cache hits and
 * misses, `cost` their costs. Nothing is rounded.
 */
export function summarizeRun(cases: readonly SummarizableCase[]): RunSummary {
  const counts: RunSummary['counts'] = { total: cases.length, passed: 0, failed: 0, error: 0 };
  const sums = new Map<CriterionKey, { total: number; count: number }>();
  const judge_cache = { hits: 0, misses: 0 };
  for (const outcome of cases) {
    counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
    judge_cache.hits += outcome.judge_cache?.hits ?? 0;
    judge_cache.misses += outcome.judge_cache?.misses ?? 0;
    for (const result of outcome.criteria) {
      if (!result.applicable) continue;
      const sum = sums.get(result.criterion) ?? { total: 0, count: 0 };
      sums.set(result.criterion, { total: sum.total + result.score, count: sum.count + 1 });
    }
  }
  const reported = CRITERION_KEYS.filter((key) => sums.has(key) || !APPLIED_ONLY_KEYS.includes(key));
  const avg_score = Object.fromEntries(
    reported.map((criterion) => {
      const sum = sums.get(criterion);
      return [criterion, sum ? sum.total / sum.count : null];
    }),
  ) as Partial<Record<CriterionKey, number | null>>;
  const judged = counts.total - (counts.skipped ?? 0);
  const pass_rate = judged === 0 ? 0 : counts.passed / judged;
  const unscored = countUnscored(cases);
  const cost = summarizeCost(cases.map((outcome) => outcome.cost));
  return { pass_rate, avg_score, counts, judge_cache, cost, ...(unscored ? { unscored } : {}) };
}

/** A cancelled run's summary: `not_scored` counts the run's cases that have no result (never below zero). */
export function withNotScored(summary: RunSummary, runCases: number): RunSummary {
  return { ...summary, not_scored: Math.max(0, runCases - summary.counts.total) };
}

/**
 * A run of several repeats: the summary with its flaky cases, most flaky first (then by name), at most
 * `LIMITS.flakyCasesListed` of them, and `flaky_count` counting them all.
 */
export function withFlakyCases(summary: RunSummary, cases: readonly SummarizableCase[]): RunSummary {
  const flaky = cases
    .filter((outcome) => isFlaky(outcome.flip_rate))
    .map((outcome) => ({ case_id: outcome.case_id ?? '', name: outcome.name ?? '', flip_rate: outcome.flip_rate ?? 0 }))
    .sort((a, b) => b.flip_rate - a.flip_rate || a.name.localeCompare(b.name) || a.case_id.localeCompare(b.case_id));
  return { ...summary, flaky: flaky.slice(0, LIMITS.flakyCasesListed), flaky_count: flaky.length };
}
