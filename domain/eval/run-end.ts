/** How a run ends when it was stopped from outside: cancelled on purpose, or failed. */
type ImposedEndStatus = 'cancelled' | 'failed';

/** The final status and message a run row gets when its workflow closed without recording one. */
export interface ImposedEnd {
  status: ImposedEndStatus;
  error: string;
}

/** A workflow's state as Temporal describes it (`WorkflowExecutionStatusName`), or `NOT_FOUND`. */
export type WorkflowState =
  | 'RUNNING'
  | 'COMPLETED'
  | 'FAILED'
  | 'CANCELLED'
  | 'TERMINATED'
  | 'CONTINUED_AS_NEW'
  | 'TIMED_OUT'
  | 'PAUSED'
  | 'UNSPECIFIED'
  | 'UNKNOWN'
  | 'NOT_FOUND';

/** A run cancelled on purpose (Temporal UI, `temporal workflow cancel`, the API's `cancel`). */
export const CANCELLED: ImposedEnd = { status: 'cancelled', error: 'the run was cancelled' };

const ENDS_BY_STATE: Partial<Record<WorkflowState, ImposedEnd>> = {
  // Termination runs no workflow code, so nothing wrote the row: someone stopped the run on purpose.
  TERMINATED: { status: 'cancelled', error: 'the run was terminated in Temporal' },
  CANCELLED,
  TIMED_OUT: { status: 'failed', error: 'the run timed out in Temporal' },
  FAILED: { status: 'failed', error: 'the run failed in Temporal' },
  COMPLETED: { status: 'failed', error: 'the run ended without recording an outcome' },
  NOT_FOUND: { status: 'failed', error: 'the run has no workflow in Temporal' },
};

/**
 * What an unfinished run row becomes given its workflow's state; undefined while the workflow may still write it.
 * A missing workflow counts only for rows older than `grace` (the api inserts the row before starting it).
 */
export function endForWorkflowState(state: WorkflowState, rowAgeMs: number, graceMs: number): ImposedEnd | undefined {
  if (state === 'NOT_FOUND' && rowAgeMs < graceMs) return undefined;
  return ENDS_BY_STATE[state];
}
