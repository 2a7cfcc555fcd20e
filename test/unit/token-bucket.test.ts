import assert from 'node:assert/strict';
import { createTokenBucket } from '../../lib/token-bucket';

describe('token bucket (the WebSocket subscribe rate)', () => {
  it('allows a burst, then refills at the rate without exceeding the burst', () => {
    let now = 0;
    const bucket = createTokenBucket(3, 2, () => now);
    assert.deepEqual(
      [1, 2, 3, 4].map(() => bucket.take()),
      [true, true, true, false],
    );
    now += 499;
    assert.equal(bucket.take(), false, 'just under one token refilled');
    now += 1;
    assert.equal(bucket.take(), true);
    assert.equal(bucket.take(), false);
    now += 60_000;
    assert.deepEqual(
      [1, 2, 3, 4].map(() => bucket.take()),
      [true, true, true, false],
      'capped at the burst',
    );
  });
});
