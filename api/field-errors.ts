import { limitMessage, type LimitUnit } from '../domain/limit-checks';
import { LIMITS, type LimitName } from '../domain/limits';
import { HttpError } from './http-error';

/** A 422 naming one field, shaped like the ones zod validation produces. */
export function invalidField(field: string, message: string): HttpError {
  return new HttpError(422, 'validation_failed', `${field}: ${message}`, [{ field, message }]);
}

/** A 422 naming the field and the limit it breaks, with the same details as a bound zod checks. */
export function limitExceeded(field: string, name: LimitName, unit: LimitUnit, why?: string): HttpError {
  const message = why ? `${why}: ${limitMessage(name, unit)}` : limitMessage(name, unit);
  return new HttpError(422, 'validation_failed', `${field}: ${message}`, [
    { field, message, limit: name, max: LIMITS[name] },
  ]);
}
