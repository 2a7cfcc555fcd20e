import assert from 'node:assert/strict';
import { logError } from '../../lib/logger';

describe('logError', () => {
  it('logs an error as its name and message only, leaving out its stack and its own fields', () => {
    const error = Object.assign(new TypeError('vault request failed'), { secret_value: 'hunter2', url: 'x' });
    assert.deepEqual(logError(error), { err: { name: 'TypeError', message: 'vault request failed' } });
  });

  it('gives a thrown non-error the same shape', () => {
    assert.deepEqual(logError('socket hang up'), { err: { message: 'socket hang up' } });
    assert.deepEqual(logError({ message: 'described', retryable: true }), { err: { message: 'described' } });
    assert.deepEqual(logError(undefined), { err: { message: 'undefined' } });
  });
});
