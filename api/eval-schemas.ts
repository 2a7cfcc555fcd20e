import { z } from 'zod';
import { HttpError } from './http-error';

/** A string with at least one non-whitespace character. */
export const nonBlank = z.string().max(100_000).regex(/\S/, 'must not be empty');

/** The input given to the agent: `message` is required and non-empty; other fields are kept as given. */
export const sessionInputSchema = z.looseObject({ message: nonBlank });

/** A name of an eval set or case. */
export const evalName = z.string().trim().min(1, 'must not be empty').max(200);

/** A 422 naming one field, shaped like the ones zod validation produces. */
export function invalidField(field: string, message: string): HttpError {
  return new HttpError(422, 'validation_failed', `${field}: ${message}`, [{ field, message }]);
}
