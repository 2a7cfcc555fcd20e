import { z } from 'zod';
import { boundedArray, boundedLooseObject, boundedString } from '../bounded-schemas';
import { minScoresOverrideSchema } from '../scoring/criteria';
import { expectedCallSchema } from '../trajectory/expected-call';
import { TRAJECTORY_MATCH_MODES } from '../trajectory/trajectory-modes';
import { caseTurnsSchema, conversationScenarioSchema, firstTurnColumns, sessionStateSchema } from './case-turns';
import type { ImportCase } from './eval-set-file.reader';
import { MOCK_POLICIES, toolMocksSchema } from './tool-mocks';
import { simulatorSettingsSchema } from './simulator-settings';

/** A string with at least one non-whitespace character. */
export const nonBlank = boundedString('textChars').regex(/\S/, 'must not be empty');

/** The input given to the agent: `message` is required and non-empty; other fields are kept as given, within
 * `sessionInputBytes`. */
export const sessionInputSchema = boundedLooseObject({ message: nonBlank }, 'sessionInputBytes');

/** `session_input` beside `turns`, whose first message is the session's: its `message` may be left out. */
export const turnsSessionInputSchema = boundedLooseObject({ message: nonBlank.optional() }, 'sessionInputBytes');

/** A name of an eval set or case. */
export const evalName = z.string().trim().min(1, 'must not be empty').max(200);

/** The optional fields of an eval case a builder writes (null or absent: none). */
export const evalCaseFields = {
  expected_trajectory: boundedArray(expectedCallSchema, 'toolCallsPerExpectedTrajectory').nullish(),
  trajectory_match: z.enum(TRAJECTORY_MATCH_MODES).optional(),
  expected_final_response: boundedString('textChars').nullish(),
  rubrics: boundedArray(nonBlank, 'rubricsPerCase').nullish(),
  turns: caseTurnsSchema.nullish(),
  state: sessionStateSchema.nullish(),
  final_state: sessionStateSchema.nullish(),
  conversation_scenario: conversationScenarioSchema.nullish(),
  tool_mocks: toolMocksSchema.nullish(),
  tool_use_rubrics: boundedArray(nonBlank, 'rubricsPerCase').nullish(),
};

/** The optional fields of a case kept whole (absent when the case has none, so a plain case reads as it always has). */
export const CASE_EXTRAS = ['state', 'final_state', 'conversation_scenario', 'tool_mocks', 'tool_use_rubrics'] as const;

/** The optional settings of an eval set a builder writes. */
export const evalSetFields = {
  description: z.string().max(10_000).optional(),
  min_scores: minScoresOverrideSchema.optional(),
  judge_samples: z.number().int().min(1).max(9).optional(),
  tool_mocks: toolMocksSchema.nullish(),
  mock_policy: z.enum(MOCK_POLICIES).optional(),
  simulate_tool_responses: z.boolean().optional(),
  /** How a simulated user plays the set's scenario cases (null: the defaults). */
  simulator: simulatorSettingsSchema.nullish(),
};

type CaseShape = {
  session_input?: { message?: string } | null;
  turns?: Array<{ user_message: string }> | null;
  expected_trajectory?: unknown;
  expected_final_response?: string | null;
  conversation_scenario?: unknown;
};

/**
 * The rules between a case's fields: a case of `turns` keeps its expectations in them (the single-turn
 * `expected_trajectory` and `expected_final_response` are refused beside them), and its `session_input.message`, if
 * given, is its first turn's message; a case gives `session_input`, `turns` or a `conversation_scenario`.
 */
export function caseShapeProblems(body: CaseShape, creating: boolean): Array<{ path: string[]; message: string }> {
  const problems: Array<{ path: string[]; message: string }> = [];
  if (body.turns) {
    for (const key of ['expected_trajectory', 'expected_final_response'] as const)
      if (body[key] !== undefined && body[key] !== null)
        problems.push({
          path: [key],
          message: `a case of turns holds this in turns[0].${key === 'expected_final_response' ? 'expected_response' : key}`,
        });
    const message = body.session_input?.message;
    if (message !== undefined && message !== body.turns[0].user_message)
      problems.push({
        path: ['session_input', 'message'],
        message: 'must equal turns[0].user_message (or be left out)',
      });
  } else if (body.session_input && body.session_input.message === undefined)
    problems.push({ path: ['session_input', 'message'], message: 'required (unless the case gives turns)' });
  else if (creating && !body.session_input && !body.conversation_scenario)
    problems.push({ path: ['session_input'], message: 'required (or give turns, or a conversation_scenario)' });
  return problems;
}

/** Every field of an eval case a builder writes. */
export const evalCaseBody = z
  .object({ name: evalName, session_input: turnsSessionInputSchema.optional(), ...evalCaseFields })
  .strict()
  .superRefine((body, ctx) => {
    for (const { path, message } of caseShapeProblems(body, true)) ctx.addIssue({ code: 'custom', path, message });
  });

/** A blank expected response means none: the criterion is then not applicable rather than judged against "". */
export const blankToNull = (text: string | null | undefined): string | null =>
  text && text.trim() !== '' ? text : null;

/**
 * The stored fields of a valid case body: a case of `turns` stores them with its first turn mirrored into the
 * single-turn fields; a scenario without a message starts from the scenario's `starting_prompt`.
 */
export function caseFieldsOf(body: z.infer<typeof evalCaseBody>): ImportCase {
  // Extras a case does not have stay absent, so a one-turn case reads as it always has.
  const extras = Object.fromEntries(CASE_EXTRAS.flatMap((key) => (body[key] ? [[key, body[key]]] : [])));
  const common = { name: body.name, trajectory_match: body.trajectory_match, rubrics: body.rubrics ?? null, ...extras };
  if (body.turns) return { ...common, ...firstTurnColumns(body.turns, body.session_input), turns: body.turns };
  const message = body.session_input?.message ?? String(body.conversation_scenario?.starting_prompt ?? '');
  const sessionInput = { ...body.session_input, message };
  return {
    ...common,
    session_input: sessionInput,
    expected_trajectory: body.expected_trajectory ?? null,
    expected_final_response: blankToNull(body.expected_final_response),
  };
}
