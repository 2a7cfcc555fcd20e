import { z } from 'zod';
import { firstFailedTurn, type TurnOutcome } from '../../domain/scoring/turn-outcomes';

const turnCriterionJson = z.object({
  score: z.number(),
  min_score: z.number().nullable(),
  passed: z.boolean(),
  detail: z.unknown(),
});

/** One turn position of a multi-turn case result. */
export const caseTurnResultJson = z.object({
  turn: z.number().describe('0-based position; actual turns align with the case turns by position'),
  status: z
    .enum(['scored', 'missing', 'extra'])
    .describe('missing: the agent gave no such turn; extra: the case has none (both score 0 on every criterion)'),
  user_message: z.string().nullable(),
  expected_response: z.string().nullable(),
  actual_response: z.string().nullable(),
  passed: z.boolean(),
  criteria: z
    .record(z.string(), turnCriterionJson)
    .describe('the criteria this turn applies, keyed by criterion key (safety is judged over the whole conversation)'),
});

/** The per-turn fields of a case result: `turns` (null for a one-turn case against a one-turn conversation). */
export const caseTurnsResultFields = {
  turns: z
    .array(caseTurnResultJson)
    .nullable()
    .describe('per-turn outcomes of a multi-turn case or conversation; null when one turn was scored against one'),
  first_failed_turn: z.number().nullable().describe('the first turn that did not pass (null when none, or one turn)'),
};

/** A stored result's per-turn fields as served. */
export function toCaseTurnsJson(turns: TurnOutcome[] | null): {
  turns: TurnOutcome[] | null;
  first_failed_turn: number | null;
} {
  return { turns, first_failed_turn: turns ? firstFailedTurn(turns) : null };
}
