import assert from 'node:assert/strict';
import { nextHealthState } from '../../domain/mcp/mcp-health';

describe('MCP health state', () => {
  const connected = { status: 'connected', failures: 0, restoreStatus: null };

  it('keeps the status until the failures in a row reach the threshold, then goes to error remembering it', () => {
    const once = nextHealthState(connected, false, 3);
    assert.deepEqual(once, { status: 'connected', failures: 1, restoreStatus: null });
    const twice = nextHealthState(once, false, 3);
    assert.deepEqual(nextHealthState(twice, false, 3), { status: 'error', failures: 3, restoreStatus: 'connected' });
  });

  it('gives back the remembered status on the next success', () => {
    const failing = { status: 'error', failures: 7, restoreStatus: 'pending' };
    assert.deepEqual(nextHealthState(failing, true, 3), { status: 'pending', failures: 0, restoreStatus: null });
  });

  it('leaves an error it did not cause (a failed sync) in place on success and on failure', () => {
    const syncError = { status: 'error', failures: 0, restoreStatus: null };
    assert.deepEqual(nextHealthState(syncError, true, 3), syncError);
    assert.deepEqual(nextHealthState(nextHealthState(syncError, false, 1), false, 1), {
      status: 'error',
      failures: 2,
      restoreStatus: null,
    });
  });
});
