import { ApplicationFailure } from '@temporalio/common';
import { RUN_FAILURE } from '../../domain/eval/run-failures';

/** Activities that prove the worker is alive. */
export function createPlatformActivities() {
  return {
    /** Echoes the message with the worker's pid; with `fail`, fails with the message instead (proves failures are encrypted too). */
    async ping(input: { message: string; fail?: boolean }): Promise<{ message: string; worker_pid: number }> {
      if (input.fail) throw ApplicationFailure.nonRetryable(`ping failed: ${input.message}`, RUN_FAILURE.pingFailed);
      return { message: input.message, worker_pid: process.pid };
    },
  };
}

export type PlatformActivities = ReturnType<typeof createPlatformActivities>;
