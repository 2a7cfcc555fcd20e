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

  it('takes several at once, or none when fewer are there, and says when that many are back', () => {
    let now = 0;
    const bucket = createTokenBucket(10, 2, () => now);
    assert.equal(bucket.take(7), true);
    assert.equal(bucket.take(4), false, 'three left: a take of four takes nothing');
    assert.equal(bucket.remaining(), 3);
    assert.equal(bucket.secondsUntil(4), 0.5);
    now += 500;
    assert.equal(bucket.take(4), true);
    assert.equal(bucket.secondsUntil(), 0.5);
  });
});
