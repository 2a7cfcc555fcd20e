import { CRITERIA_ORDER, type CaseResultJson, type TurnResultJson } from './eval-run.types';

/** A multi-turn case result's turns; null for a one-turn result (it renders exactly as before turns existed). */
export const turnsOf = (result: CaseResultJson): TurnResultJson[] | null =>
  Array.isArray(result.turns) && result.turns.length > 0 ? result.turns : null;

type TurnCriterionJson = TurnResultJson['criteria'][string];

const fmt = (n: number): string => n.toFixed(2);
// Criteria in the order the results table prints its columns (any other last); Postgres keeps jsonb keys otherwise.
const rank = (key: string): number =>
  CRITERIA_ORDER.includes(key) ? CRITERIA_ORDER.indexOf(key) : CRITERIA_ORDER.length;
const appliedCriteria = (turn: TurnResultJson): Array<[string, TurnCriterionJson]> =>
  Object.entries(turn.criteria)
    .filter(([, c]) => c.applicable !== false)
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1));
const failedCriteria = (turn: TurnResultJson): Array<[string, TurnCriterionJson]> =>
  appliedCriteria(turn).filter(([, c]) => !c.passed);

/** The reason a missing or extra turn's criterion gives (`{ reason }`), or null. */
export const reasonOf = (detail: unknown): string | null => {
  const reason = (detail as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : null;
};

/** Why a missing or extra turn scored 0 (the scorer's reason), or null for a scored turn. */
export function turnReason(turn: TurnResultJson): string | null {
  if (turn.status === 'scored') return null;
  const reasons = Object.values(turn.criteria).map((c) => reasonOf(c.detail));
  return reasons.find((r) => r !== null) ?? `${turn.status} turn`;
}

/** `turns` column of the results table: how many turns passed and the one that failed first ('-' for one turn). */
export function turnsCell(result: CaseResultJson): string {
  const turns = turnsOf(result);
  if (!turns) return '-';
  const passed = turns.filter((t) => t.passed).length;
  const first = result.first_failed_turn ?? null;
  return `${passed}/${turns.length} passed${first === null ? '' : `, turn ${first} failed first`}`;
}

/** One turn on one line: number, status, verdict, and each criterion's score (a failed one with its minimum). */
export function turnLine(turn: TurnResultJson): string {
  const scores = appliedCriteria(turn).map(([key, c]) => {
    const min = c.passed || c.min_score === null ? '' : ` < ${fmt(c.min_score)}`;
    return `${key} ${fmt(c.score)}${c.passed ? '' : ` FAIL${min}`}`;
  });
  const reason = turnReason(turn);
  const head = `turn ${turn.turn}${turn.status === 'scored' ? '' : ` ${turn.status}`} ${turn.passed ? 'pass' : 'FAIL'}`;
  return `${head}: ${scores.join(', ') || 'no criteria'}${reason ? ` (${reason})` : ''}`;
}

/** The turn that failed first and its failing criteria, e.g. `turn 2 failed first: final_response_match 0.40 < 0.80`. */
export function firstFailure(result: CaseResultJson): string | null {
  const turns = turnsOf(result);
  const first = result.first_failed_turn ?? null;
  const turn = turns?.find((t) => t.turn === first);
  if (!turn) return null;
  const criteria = failedCriteria(turn).map(([key, c]) => `${key} ${fmt(c.score)} < ${fmt(c.min_score ?? 1)}`);
  const reason = turnReason(turn);
  return `turn ${turn.turn} failed first${reason ? ` (${reason})` : ''}: ${criteria.join(', ') || 'no criterion met'}`;
}

/** Every turn of a multi-turn result, one line each (empty for a one-turn result). */
export const turnLines = (result: CaseResultJson): string[] => (turnsOf(result) ?? []).map(turnLine);

/** The per-turn detail of one criterion of a multi-turn result: each failed turn with its own criterion entry. */
export function failedTurnsOf(
  result: CaseResultJson,
  key: string,
): Array<{ turn: number; criterion: TurnCriterionJson }> {
  return (turnsOf(result) ?? []).flatMap((t) => {
    const criterion = t.criteria[key];
    return criterion && criterion.applicable !== false && !criterion.passed ? [{ turn: t.turn, criterion }] : [];
  });
}
