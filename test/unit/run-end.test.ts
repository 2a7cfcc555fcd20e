import assert from 'node:assert/strict';
import { endForWorkflowState, type WorkflowState } from '../../domain/eval/run-end';

const GRACE = 60_000;

describe('settling a run whose workflow closed without writing it', () => {
  it('ends terminated and cancelled workflows cancelled, and timed-out, failed or silent ones failed', () => {
    const cases: Array<[WorkflowState, string | undefined]> = [
      ['TERMINATED', 'cancelled'],
      ['CANCELLED', 'cancelled'],
      ['TIMED_OUT', 'failed'],
      ['FAILED', 'failed'],
      ['COMPLETED', 'failed'],
      ['RUNNING', undefined],
      ['CONTINUED_AS_NEW', undefined],
      ['PAUSED', undefined],
    ];
    for (const [state, status] of cases)
      assert.equal(endForWorkflowState(state, GRACE * 2, GRACE)?.status, status, state);
    assert.equal(endForWorkflowState('TERMINATED', 0, GRACE)?.error, 'the run was terminated in Temporal');
  });

  it('fails a run whose workflow is missing only once the row is older than the grace period', () => {
    assert.equal(endForWorkflowState('NOT_FOUND', GRACE - 1, GRACE), undefined);
    assert.deepEqual(endForWorkflowState('NOT_FOUND', GRACE, GRACE), {
      status: 'failed',
      error: 'the run has no workflow in Temporal',
    });
  });
});
