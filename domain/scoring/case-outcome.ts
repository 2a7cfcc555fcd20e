import { isCriterionError, type CriterionError, type CriterionResult } from './criteria';
import type { TurnOutcome } from './turn-outcomes';
import { withUnscored } from './unscored';

/** Every status a case of a run can end in, in report order. */
export const CASE_STATUSES = ['passed', 'failed', 'error', 'skipped'] as const;

/** The status of one case in a run. */
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Why a `conversation_scenario` case is reported `skipped` (it has no turns until a user simulator writes them). */
export const SCENARIO_SKIP_REASON =
  'the case is a conversation_scenario: it needs a user simulator to write its turns, so it was not scored';

/** The outcome of one case: its status, the criteria that were scored, and why it errored if it did. */
export interface CaseOutcome {
  status: CaseStatus;
  criteria: CriterionResult[];
  error: string | null;
  /** A multi-turn case (or conversation): each turn position's outcome; absent or null for one turn against one. */
  turns?: TurnOutcome[] | null;
  /** The first turn that did not pass (multi-turn only). */
  first_failed_turn?: number | null;
}

/** What scoring produced for a case: per-criterion entries, or an error that stopped scoring altogether. */
export type CaseScoring = ReadonlyArray<CriterionResult | CriterionError> | { error: string };

/**
 * Decides a case: `error` when scoring failed. A criterion that could not be scored (the judge gave no usable verdict
 * after its retries) is `unscored` (`withUnscored`) and decides nothing: the case is `failed` when a scored criterion
 * failed anyway, otherwise it is undecided and ends `error` naming the unscored criteria (neither passed nor failed;
 * retry-errors re-scores it). Otherwise `passed` when every applied criterion passed, else `failed`.
 */
export function decideCaseOutcome(scoring: CaseScoring): CaseOutcome {
  if (isScoringFailure(scoring)) return { status: 'error', criteria: [], error: scoring.error };
  const failures = scoring.filter(isCriterionError);
  const criteria = withUnscored(
    scoring.filter((entry): entry is CriterionResult => !isCriterionError(entry)),
    failures,
  );
  const failed = criteria.some((result) => result.applicable && !result.passed);
  if (failures.length > 0 && !failed) {
    return { status: 'error', criteria, error: failures.map((e) => `${e.criterion}: ${e.error}`).join('; ') };
  }
  if (criteria.length === 0) return { status: 'error', criteria, error: 'no criterion was scored' };
  const passed = criteria.every((result) => !result.applicable || result.passed);
  return { status: passed ? 'passed' : 'failed', criteria, error: null };
}

// Array.isArray does not narrow a union with a readonly array, hence the explicit guard.
function isScoringFailure(scoring: CaseScoring): scoring is { error: string } {
  return !Array.isArray(scoring);
}
