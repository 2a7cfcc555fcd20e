import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';
import { RUN_FATAL_FAILURES } from '../domain/eval/run-failures';

/** The message of an activity's or child's failure, for the run or a case error. */
export function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure || error instanceof ChildWorkflowFailure)
    return error.cause?.message || error.message;
  return error instanceof Error ? error.message : String(error);
}

/** True when the failure ends the whole run (the provider refused the key, the endpoint is blocked …). */
export function isRunFatal(error: unknown): boolean {
  const cause = error instanceof ActivityFailure || error instanceof ChildWorkflowFailure ? error.cause : undefined;
  return cause instanceof ApplicationFailure && RUN_FATAL_FAILURES.includes(cause.type ?? '');
}
