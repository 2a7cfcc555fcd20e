/** The one error type of the HTTP layer; the error middleware turns it into `{ error: { code, message, details } }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  toJSON(): { error: { code: string; message: string; details?: unknown } } {
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
