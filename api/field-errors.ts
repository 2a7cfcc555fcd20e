import type { FieldProblem } from '../domain/field-problems';
import { limitMessage, limitNamedIn, type LimitUnit } from '../domain/limit-checks';
import { LIMITS, type LimitName } from '../domain/limits';
import { HttpError } from './http-error';

/** A 422 naming one field, shaped like the ones zod validation produces. */
export function invalidField(field: string, message: string): HttpError {
  return new HttpError(422, 'validation_failed', `${field}: ${message}`, [{ field, message }]);
}

/** A problem as a 422 lists it: one that breaks a limit of the table also names the limit and its value. */
export function problemDetail<P extends FieldProblem>(problem: P): P & { limit?: LimitName; max?: number } {
  const limit = limitNamedIn(problem.message);
  return limit ? { ...problem, limit, max: LIMITS[limit] } : problem;
}

/** A 422 listing every problem (the first in its message), each as `problemDetail` says. */
export function invalidFields(problems: readonly FieldProblem[]): HttpError {
  const details = problems.map(problemDetail);
  return new HttpError(422, 'validation_failed', `${details[0].field}: ${details[0].message}`, details);
}

/** A 422 naming the field and the limit it breaks, with the same details as a bound zod checks. */
export function limitExceeded(field: string, name: LimitName, unit: LimitUnit, why?: string): HttpError {
  const message = why ? `${why}: ${limitMessage(name, unit)}` : limitMessage(name, unit);
  return new HttpError(422, 'validation_failed', `${field}: ${message}`, [
    { field, message, limit: name, max: LIMITS[name] },
  ]);
}
