import { z } from 'zod';
import { boundedArray, boundedJson, boundedLooseObject, boundedString } from '../bounded-schemas';
import { expectedCallSchema, type ExpectedCall } from '../trajectory/expected-call';
import { userPersonaSchema } from './personas';

const nonBlankText = boundedString('textChars').regex(/\S/, 'must not be empty');

/** One turn of a case: what the user says, and what the agent is expected to call and answer in reply. */
export interface CaseTurn {
  user_message: string;
  expected_trajectory?: ExpectedCall[] | null;
  /** What the turn's tool calls are expected to return (kept, shown and exported; not scored). */
  expected_tool_responses?: Array<{ tool_name: string; response: unknown }> | null;
  expected_response?: string | null;
  /** Judged against this turn's reply alone. */
  rubrics?: string[] | null;
}

/** Validates one turn of a case's `turns`. */
export const caseTurnSchema = z
  .object({
    user_message: nonBlankText,
    expected_trajectory: boundedArray(expectedCallSchema, 'toolCallsPerExpectedTrajectory').nullish(),
    expected_tool_responses: boundedArray(
      z.object({ tool_name: z.string().min(1).max(200), response: boundedJson('toolResultBytes') }).strict(),
      'toolCallsPerExpectedTrajectory',
    ).nullish(),
    expected_response: boundedString('textChars').nullish(),
    rubrics: boundedArray(nonBlankText, 'rubricsPerCase').nullish(),
  })
  .strict();

/** A case's `turns`: one to `turnsPerCase`. */
export const caseTurnsSchema = boundedArray(caseTurnSchema, 'turnsPerCase').min(1, 'a case has at least one turn');

/** A session's state (the initial `state` of a case, or its expected `final_state`). */
export const sessionStateSchema = boundedLooseObject({}, 'sessionStateBytes');

/** An ADK `conversation_scenario` (a simulated user's starting prompt, plan and persona), stored whole. */
export const conversationScenarioSchema = boundedLooseObject(
  {
    starting_prompt: nonBlankText,
    conversation_plan: boundedString('textChars').optional(),
    user_persona: userPersonaSchema.nullish(),
  },
  'conversationScenarioBytes',
);

/** A conversation scenario as a case keeps it. */
export type ConversationScenario = z.infer<typeof conversationScenarioSchema>;

/** What a case row holds of its turns: the `turns` column, else the single turn of the columns of a one-turn case. */
export interface CaseTurnColumns {
  turns: CaseTurn[] | null;
  session_input: { message: string } & Record<string, unknown>;
  expected_trajectory: ExpectedCall[] | null;
  expected_final_response: string | null;
  conversation_scenario?: ConversationScenario | null;
}

/**
 * A case's turns, in order: its `turns`, or the one turn a single-turn case's fields describe; none for a case
 * that is a conversation scenario only (a simulated user writes its turns).
 */
export function caseTurns(row: CaseTurnColumns): CaseTurn[] {
  if (row.turns) return row.turns;
  if (row.conversation_scenario) return [];
  return [
    {
      user_message: row.session_input.message,
      expected_trajectory: row.expected_trajectory,
      expected_response: row.expected_final_response,
    },
  ];
}

/** The single-turn columns that mirror a case's first turn (read by one-turn clients, lists and files). */
export function firstTurnColumns(
  turns: CaseTurn[],
  sessionInput: Record<string, unknown> | null | undefined,
): Omit<CaseTurnColumns, 'turns'> {
  const [first] = turns;
  return {
    session_input: { ...(sessionInput ?? {}), message: first.user_message },
    expected_trajectory: first.expected_trajectory ?? null,
    expected_final_response:
      first.expected_response && first.expected_response.trim() !== '' ? first.expected_response : null,
  };
}
