import { z } from 'zod';
import { boundedString } from '../domain/bounded-schemas';

/** A string with at least one non-whitespace character. */
export const nonBlank = boundedString('textChars').regex(/\S/, 'must not be empty');

/** The input given to the agent: `message` is required and non-empty; other fields are kept as given. */
export const sessionInputSchema = z.looseObject({ message: nonBlank });

/** A name of an eval set or case. */
export const evalName = z.string().trim().min(1, 'must not be empty').max(200);
