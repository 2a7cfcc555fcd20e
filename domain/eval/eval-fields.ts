import { z } from 'zod';
import { boundedArray, boundedLooseObject, boundedString } from '../bounded-schemas';
import { minScoresOverrideSchema } from '../scoring/criteria';
import { expectedCallSchema } from '../trajectory/expected-call';
import { TRAJECTORY_MATCH_MODES } from '../trajectory/trajectory-modes';

/** A string with at least one non-whitespace character. */
export const nonBlank = boundedString('textChars').regex(/\S/, 'must not be empty');

/** The input given to the agent: `message` is required and non-empty; other fields are kept as given, within
 * `sessionInputBytes`. */
export const sessionInputSchema = boundedLooseObject({ message: nonBlank }, 'sessionInputBytes');

/** A name of an eval set or case. */
export const evalName = z.string().trim().min(1, 'must not be empty').max(200);

/** The optional fields of an eval case a builder writes (null or absent: none). */
export const evalCaseFields = {
  expected_trajectory: boundedArray(expectedCallSchema, 'toolCallsPerExpectedTrajectory').nullish(),
  trajectory_match: z.enum(TRAJECTORY_MATCH_MODES).optional(),
  expected_final_response: boundedString('textChars').nullish(),
  rubrics: boundedArray(nonBlank, 'rubricsPerCase').nullish(),
};

/** The optional settings of an eval set a builder writes. */
export const evalSetFields = {
  description: z.string().max(10_000).optional(),
  min_scores: minScoresOverrideSchema.optional(),
  judge_samples: z.number().int().min(1).max(9).optional(),
};

/** Every field of an eval case a builder writes. */
export const evalCaseBody = z.object({ name: evalName, session_input: sessionInputSchema, ...evalCaseFields }).strict();

/** A blank expected response means none: the criterion is then not applicable rather than judged against "". */
export const blankToNull = (text: string | null | undefined): string | null =>
  text && text.trim() !== '' ? text : null;
