import type { CriterionError, CriterionKey, CriterionResult } from './criteria';

/** Detail of an `unscored` criterion: why the judge (or simulator) gave no usable verdict, after its retries. */
export interface UnscoredDetail {
  reason: string;
}

/**
 * A criterion the judge or simulator could not score for the case (docs/evaluation.md "Unscored criteria"): neither
 * passed nor failed, so it is left out of the averages and the turns like a criterion that did not apply
 * (`applicable: false`, `passed: true`, score 0), and flagged `unscored` so the case, the summary and the gate tell it.
 */
export function unscoredResult(failure: CriterionError): CriterionResult<UnscoredDetail> {
  const { criterion, error } = failure;
  return {
    criterion,
    score: 0,
    min_score: null,
    passed: true,
    applicable: false,
    unscored: true,
    detail: { reason: error },
  };
}

/**
 * The criteria of a case with each failure made `unscored`: one entry per criterion, and a criterion that failed on
 * any turn (or repeat judgement) is unscored for the whole case, replacing its partial score.
 */
export function withUnscored(
  criteria: readonly CriterionResult[],
  failures: readonly CriterionError[],
): CriterionResult[] {
  const reasons = new Map<CriterionKey, string[]>();
  for (const { criterion, error } of failures) reasons.set(criterion, [...(reasons.get(criterion) ?? []), error]);
  const unscored = [...reasons].map(([criterion, errors]) => unscoredResult({ criterion, error: errors.join('; ') }));
  return [...criteria.filter((entry) => !reasons.has(entry.criterion)), ...unscored];
}

/** What the summary reads of a case's criteria to count the unscored ones. */
type CountedCriterion = Pick<CriterionResult, 'criterion' | 'unscored'>;

/** A run's unscored counts: cases with at least one unscored criterion, and per criterion the cases that left it so. */
export interface UnscoredCounts {
  cases: number;
  criteria: Partial<Record<CriterionKey, number>>;
}

/** The unscored counts of a run; null when no case left a criterion unscored (the summary then shows nothing). */
export function countUnscored(cases: ReadonlyArray<{ criteria: readonly CountedCriterion[] }>): UnscoredCounts | null {
  const criteria: Partial<Record<CriterionKey, number>> = {};
  let count = 0;
  for (const outcome of cases) {
    const keys = outcome.criteria.filter((entry) => entry.unscored === true).map((entry) => entry.criterion);
    if (keys.length > 0) count++;
    for (const key of keys) criteria[key] = (criteria[key] ?? 0) + 1;
  }
  return count === 0 ? null : { cases: count, criteria };
}
