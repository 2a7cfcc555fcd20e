import { notApplicable, scored, type CriterionKey, type CriterionResult } from './criteria';

/** How an actual turn lines up with the case's turns: both present, expected but not given, or given unexpectedly. */
export type TurnStatus = 'scored' | 'missing' | 'extra';

/** A criterion's entry in one turn's outcome (only criteria the turn applies). */
export interface TurnCriterion {
  score: number;
  min_score: number | null;
  passed: boolean;
  detail: unknown;
}

/** The outcome of one turn position of a multi-turn case, as stored in `case_results.turns` and served. */
export interface TurnOutcome {
  turn: number;
  status: TurnStatus;
  user_message: string | null;
  expected_response: string | null;
  actual_response: string | null;
  passed: boolean;
  criteria: Partial<Record<CriterionKey, TurnCriterion>>;
}

/** What a turn position holds on each side (null: that side has no turn there). */
export interface TurnSides {
  turn: number;
  user_message: string | null;
  expected_response: string | null;
  actual_response: string | null;
}

/** A criterion a case applies per turn, with its minimum. */
export interface TurnCriterionKey {
  criterion: CriterionKey;
  minScore: number;
}

/** One turn's score of a criterion, as the case-level entry lists it. */
export interface TurnScore {
  turn: number;
  score: number;
  passed: boolean;
}

/** Detail of a case-level criterion of a multi-turn case. */
export interface OverTurnsDetail {
  turns: TurnScore[];
  first_failed_turn: number | null;
  /** `rubric_based` only: the one judgement of the case-level rubrics over the whole conversation. */
  conversation?: { score: number; passed: boolean; detail: unknown };
}

/** The status of turn position `index` when the case has `expected` turns and the conversation `actual` ones. */
export function turnStatus(index: number, expected: number, actual: number): TurnStatus {
  if (index >= expected) return 'extra';
  return index >= actual ? 'missing' : 'scored';
}

/** A scored turn: the criteria its results applied, passed when each of them passed. */
export function scoredTurn(sides: TurnSides, results: readonly CriterionResult[]): TurnOutcome {
  const criteria: TurnOutcome['criteria'] = {};
  for (const { criterion, score, min_score, passed, applicable, detail } of results) {
    if (applicable) criteria[criterion] = { score, min_score, passed, detail };
  }
  return { ...sides, status: 'scored', passed: results.every((result) => result.passed), criteria };
}

/** A missing or extra turn: 0 on every criterion the case applies per turn, with a detail that says why. */
export function absentTurn(
  sides: TurnSides,
  status: Exclude<TurnStatus, 'scored'>,
  keys: readonly TurnCriterionKey[],
): TurnOutcome {
  const reason = status === 'missing' ? `the agent gave no turn ${sides.turn}` : `turn ${sides.turn} was not expected`;
  const criteria: TurnOutcome['criteria'] = {};
  for (const { criterion, minScore } of keys) {
    criteria[criterion] = { score: 0, min_score: minScore, passed: false, detail: { reason } };
  }
  return { ...sides, status, passed: false, criteria };
}

/**
 * A criterion at case level: the mean of its score over the turns it applies to (and, for `rubric_based`, the
 * judgement of the case-level rubrics as one more entry), passed when the mean meets the minimum; not applicable
 * when no turn applies it.
 */
export function overTurns(
  key: TurnCriterionKey,
  turns: readonly TurnOutcome[],
  conversation?: CriterionResult,
): CriterionResult {
  const scores: TurnScore[] = turns.flatMap((outcome) => {
    const entry = outcome.criteria[key.criterion];
    return entry ? [{ turn: outcome.turn, score: entry.score, passed: entry.passed }] : [];
  });
  const whole = conversation?.applicable
    ? { score: conversation.score, passed: conversation.passed, detail: conversation.detail }
    : undefined;
  const all = [...scores.map((entry) => entry.score), ...(whole ? [whole.score] : [])];
  if (all.length === 0) return notApplicable(key.criterion, key.minScore, 'no turn of the case applies it');
  const detail: OverTurnsDetail = {
    turns: scores,
    first_failed_turn: scores.find((entry) => !entry.passed)?.turn ?? null,
    ...(whole ? { conversation: whole } : {}),
  };
  return scored(key.criterion, all.reduce((sum, score) => sum + score, 0) / all.length, key.minScore, detail);
}

/** The first turn that did not pass, or null. */
export function firstFailedTurn(turns: readonly TurnOutcome[]): number | null {
  return turns.find((outcome) => !outcome.passed)?.turn ?? null;
}
