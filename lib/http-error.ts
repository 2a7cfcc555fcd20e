/** Every `error.code` the API answers with; the README's *Error codes* table lists each one. */
export const HTTP_ERROR_CODES = [
  'malformed_json',
  'malformed_path',
  'invalid_header',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'last_owner',
  'run_not_ended',
  'baseline_not_found',
  'agent_not_published',
  'agent_model_unresolvable',
  'agent_settings_invalid',
  'provider_not_connected',
  'run_ended',
  'no_error_cases',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'secret_required',
  'codec_failed',
  'internal',
  'agent_run_failed',
  'mcp_test_failed',
  'mcp_sync_failed',
  'mcp_authorize_failed',
  'mcp_call_failed',
  'unavailable',
  'worker_timeout',
  'rate_limited',
  'headers_too_large',
  'uri_too_long',
] as const;

/** One of `HTTP_ERROR_CODES`: a code outside the list (a typo) fails `tsc`. */
export type HttpErrorCode = (typeof HTTP_ERROR_CODES)[number];

/** The one error type of the HTTP layer; the error middleware turns it into `{ error: { code, message, details } }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: HttpErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  toJSON(): { error: { code: HttpErrorCode; message: string; details?: unknown } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

/** 404 that reads the same whether the resource is missing or belongs to another workspace. */
export function notFound(what: string): HttpError {
  return new HttpError(404, 'not_found', `${what} not found`);
}

/** 409 for a change that raced another change of the same resource; the client retries. */
export function changeInProgress(what: string): HttpError {
  return new HttpError(409, 'conflict', `another change to this ${what} is in progress; try again`);
}
