import type { CaseOutcome, CaseStatus } from './case-outcome';
import type { CriterionKey, CriterionResult } from './criteria';

/** A case scored `repeats` times: the aggregate outcome and how often its repeats disagreed. */
export interface RepeatedOutcome extends CaseOutcome {
  /** min(repeats passed, repeats not passed) ÷ repeats: 0 when every repeat agrees, 0.5 when they split evenly. */
  flip_rate: number;
}

/**
 * The flip rate of a case's repeats: the fraction of them that had the minority outcome (passed vs not passed), so
 * 0 for a stable case and at most 0.5; a case that passes on alternate repeats has 0.5 whatever their number.
 */
export function flipRate(statuses: readonly CaseStatus[]): number {
  if (statuses.length === 0) return 0;
  const passed = statuses.filter((status) => status === 'passed').length;
  return Math.min(passed, statuses.length - passed) / statuses.length;
}

/** A flaky case passed in some repeats and not in others. */
export const isFlaky = (flip: number | null | undefined): boolean => (flip ?? 0) > 0;

// One criterion over the repeats that scored it: the mean score where it applied (else the last score), passed when it
// passed (or did not apply) in at least `minPass` repeats, the last applied repeat's detail and minimum (unscored only
// when no repeat scored it).
function aggregateCriterion(entries: readonly CriterionResult[], minPass: number): CriterionResult {
  const applied = entries.filter((entry) => entry.applicable);
  const last = applied.length > 0 ? applied[applied.length - 1] : entries[entries.length - 1];
  const score = applied.length > 0 ? applied.reduce((sum, entry) => sum + entry.score, 0) / applied.length : last.score;
  const passes = entries.filter((entry) => !entry.applicable || entry.passed).length;
  return { ...last, score, applicable: applied.length > 0, passed: passes >= minPass };
}

/**
 * Aggregates a case's repeats (`outcomes[r]` is repeat r): `passed` when at least `minRepeatPass` repeats passed;
 * `error` when the repeats that errored could have decided it (passed < minRepeatPass ≤ passed + errored), naming
 * each error; otherwise `failed`. Each criterion is aggregated over the repeats that scored it (see
 * `aggregateCriterion`), so a criterion's `passed` follows the same rule as the case.
 */
export function aggregateRepeats(outcomes: readonly CaseOutcome[], minRepeatPass: number): RepeatedOutcome {
  const statuses = outcomes.map((outcome) => outcome.status);
  const passed = statuses.filter((status) => status === 'passed').length;
  const errors = outcomes.flatMap((outcome, repeat) =>
    outcome.status === 'error' ? [`repeat ${repeat}: ${outcome.error ?? 'error'}`] : [],
  );
  const status: CaseStatus =
    passed >= minRepeatPass ? 'passed' : passed + errors.length >= minRepeatPass ? 'error' : 'failed';
  const byCriterion = new Map<CriterionKey, CriterionResult[]>();
  for (const outcome of outcomes)
    for (const entry of outcome.criteria)
      byCriterion.set(entry.criterion, [...(byCriterion.get(entry.criterion) ?? []), entry]);
  const criteria = [...byCriterion.values()].map((entries) => aggregateCriterion(entries, minRepeatPass));
  return { status, criteria, error: status === 'error' ? errors.join('; ') : null, flip_rate: flipRate(statuses) };
}
