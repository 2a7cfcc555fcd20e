import type { CaseStatus } from '../scoring/case-outcome';
import type { Efficiency } from '../scoring/efficiency';

/** How a case moved from the baseline run to the compared run, in the order a comparison lists them. */
export const TRANSITIONS = ['regressed', 'fixed', 'still_failing', 'new', 'removed', 'still_passing'] as const;
export type Transition = (typeof TRANSITIONS)[number];

/** One stored case result as a comparison reads it: status, and each criterion's score (null where it did not apply). */
export interface ComparedResult {
  case_id: string;
  case_name: string;
  status: CaseStatus;
  scores: Record<string, number | null>;
  /** A multi-turn result: the 0-based turn that failed first (null: none did). Absent for a one-turn result. */
  first_failed_turn?: number | null;
  /** Runs of several repeats: the case's flip rate (null or absent otherwise). */
  flip_rate?: number | null;
  /** The scored conversation's efficiency figures (null or absent: none recorded). */
  efficiency?: Efficiency | null;
}

/** A value in the compared run and in the baseline, and run − baseline (null unless both are numbers). */
export interface Delta {
  run: number | null;
  baseline: number | null;
  delta: number | null;
}

/** One case of a comparison; `status`/`baseline_status` are null where that run has no result for the case. */
export interface CaseComparison {
  case_id: string;
  case_name: string;
  transition: Transition;
  status: CaseStatus | null;
  baseline_status: CaseStatus | null;
  criteria: Record<string, Delta>;
  /** Only where either run scored the case by turns: the turn that failed first in each (null: none, or no turns). */
  first_failed_turn?: { run: number | null; baseline: number | null };
}

/** Counts of each transition over every case, pass rates (passed ÷ cases with a result) and criterion means. */
export type ComparisonSummary = Record<Transition, number> & {
  pass_rate: { run: number; baseline: number; delta: number };
  criteria: Record<string, Delta>;
};

/** A whole comparison: the summary and every case, in comparison order. */
export interface RunComparison {
  summary: ComparisonSummary;
  cases: CaseComparison[];
}

/**
 * The transition of a case from its baseline status to its status in the run (null: no result in that run).
 * An `error` counts as not passed, so passed → error is a regression.
 */
export function transitionOf(status: CaseStatus | null, baseline: CaseStatus | null): Transition {
  if (status === null) return 'removed';
  if (baseline === null) return 'new';
  const passed = status === 'passed';
  if (baseline === 'passed') return passed ? 'still_passing' : 'regressed';
  return passed ? 'fixed' : 'still_failing';
}

const delta = (run: number | null, baseline: number | null): Delta => ({
  run,
  baseline,
  delta: run === null || baseline === null ? null : run - baseline,
});

const keysOf = (...records: Array<Record<string, unknown>>): string[] =>
  [...new Set(records.flatMap((record) => Object.keys(record)))].sort();

function caseComparison(run: ComparedResult | undefined, baseline: ComparedResult | undefined): CaseComparison {
  const known = (run ?? baseline) as ComparedResult;
  const [scores, baselineScores] = [run?.scores ?? {}, baseline?.scores ?? {}];
  return {
    case_id: known.case_id,
    case_name: known.case_name,
    transition: transitionOf(run?.status ?? null, baseline?.status ?? null),
    status: run?.status ?? null,
    baseline_status: baseline?.status ?? null,
    criteria: Object.fromEntries(
      keysOf(scores, baselineScores).map((key) => [key, delta(scores[key] ?? null, baselineScores[key] ?? null)]),
    ),
    ...firstFailedTurns(run, baseline),
  };
}

// A one-turn case (in both runs) gets no `first_failed_turn`, so its entry reads exactly as before turns existed.
function firstFailedTurns(
  run: ComparedResult | undefined,
  baseline: ComparedResult | undefined,
): Pick<CaseComparison, 'first_failed_turn'> {
  if (run?.first_failed_turn === undefined && baseline?.first_failed_turn === undefined) return {};
  return { first_failed_turn: { run: run?.first_failed_turn ?? null, baseline: baseline?.first_failed_turn ?? null } };
}

const passRate = (results: readonly ComparedResult[]): number =>
  results.length === 0 ? 0 : results.filter((result) => result.status === 'passed').length / results.length;

// Each criterion's mean over the results where it applied (null where it never did), like a run's `avg_score`.
function criterionMeans(results: readonly ComparedResult[]): Record<string, number | null> {
  const sums = new Map<string, { total: number; count: number }>();
  for (const result of results) {
    for (const [key, score] of Object.entries(result.scores)) {
      const sum = sums.get(key) ?? { total: 0, count: 0 };
      sums.set(key, score === null ? sum : { total: sum.total + score, count: sum.count + 1 });
    }
  }
  return Object.fromEntries([...sums].map(([key, sum]) => [key, sum.count === 0 ? null : sum.total / sum.count]));
}

function summarize(
  cases: readonly CaseComparison[],
  run: readonly ComparedResult[],
  baseline: readonly ComparedResult[],
): ComparisonSummary {
  const counts = Object.fromEntries(TRANSITIONS.map((transition) => [transition, 0])) as Record<Transition, number>;
  for (const { transition } of cases) counts[transition]++;
  const [means, baselineMeans] = [criterionMeans(run), criterionMeans(baseline)];
  const [rate, baselineRate] = [passRate(run), passRate(baseline)];
  return {
    ...counts,
    pass_rate: { run: rate, baseline: baselineRate, delta: rate - baselineRate },
    criteria: Object.fromEntries(
      keysOf(means, baselineMeans).map((key) => [key, delta(means[key] ?? null, baselineMeans[key] ?? null)]),
    ),
  };
}

/**
 * The sort key of a case in a comparison: transition (in `TRANSITIONS` order), case name, case id. The key is
 * unique, so it also names a position to page from.
 */
export function caseOrderKey(entry: Pick<CaseComparison, 'transition' | 'case_name' | 'case_id'>): string[] {
  return [String(TRANSITIONS.indexOf(entry.transition)), entry.case_name, entry.case_id];
}

/** Orders two `caseOrderKey`s, element by element, by UTF-16 code units (the same on every machine and locale). */
export function compareOrderKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * Compares a run's results with a baseline's, case by case (by case id): each case's transition and per-criterion
 * score deltas, sorted regressed, fixed, still failing, new, removed, still passing, then by case name; and a
 * summary over all cases. A case in both runs is named as the run scored it. A `skipped` result counts as no result.
 */
export function compareRuns(
  runResults: readonly ComparedResult[],
  baselineResults: readonly ComparedResult[],
): RunComparison {
  const [run, baseline] = [runResults, baselineResults].map((results) =>
    results.filter((result) => result.status !== 'skipped'),
  );
  const baselineById = new Map(baseline.map((result) => [result.case_id, result]));
  const runIds = new Set(run.map((result) => result.case_id));
  const cases = [
    ...run.map((result) => caseComparison(result, baselineById.get(result.case_id))),
    ...baseline.filter((result) => !runIds.has(result.case_id)).map((result) => caseComparison(undefined, result)),
  ];
  cases.sort((a, b) => compareOrderKeys(caseOrderKey(a), caseOrderKey(b)));
  return { summary: summarize(cases, run, baseline), cases };
}
