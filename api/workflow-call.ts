import { WorkflowFailedError } from '@temporalio/client';
import { TimeoutFailure } from '@temporalio/common';
import { HttpError, type HttpErrorCode } from './http-error';

function innermost(error: Error): Error {
  let current = error;
  for (let depth = 0; depth < 6 && current.cause instanceof Error; depth++) current = current.cause;
  return current;
}

/** Awaits a workflow's result; a failed workflow becomes a 502 carrying its (secret-free) failure message. */
export async function awaitWorkflow<T>(run: () => Promise<T>, code: HttpErrorCode): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw error;
    const cause = error.cause ? innermost(error.cause) : undefined;
    if (cause instanceof TimeoutFailure || !cause)
      throw new HttpError(504, 'worker_timeout', 'no worker completed the request in time');
    throw new HttpError(502, code, cause.message);
  }
}
