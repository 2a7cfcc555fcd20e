import { HttpError } from './http-error';

/**
 * 422 `secret_required`: the request changes where a stored secret is sent (`field`) without giving the secret
 * again in `give` (the body field to send it in). Names the secrets, never their values.
 */
export function secretRequired(field: string, reason: string, give: string, secrets: readonly string[]): HttpError {
  return new HttpError(422, 'secret_required', `${field}: ${reason}; give ${give} again in the same request`, [
    { field, message: reason, give, secrets: [...secrets] },
  ]);
}
