import assert from 'node:assert/strict';
import { Response } from 'undici';
import {
  createAdaptiveLimiter,
  createLimiterRegistry,
  limitedFetch,
  type Permit,
} from '../../lib/outbound/llm/adaptive-limiter';

// Settles pending promise callbacks without waiting for any timer.
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the adaptive limiter of one provider key', () => {
  it('lets `limit` calls in, queues the rest in order, and lets the next one in as a call ends', async () => {
    const limiter = createAdaptiveLimiter(2);
    const order: number[] = [];
    const permits = await Promise.all([limiter.acquire(), limiter.acquire()]);
    const waiting = [1, 2].map((n) => limiter.acquire().then((permit) => (order.push(n), permit)));
    await settle();
    assert.deepEqual(order, []);
    permits[0].finish({ kind: 'ok' });
    await settle();
    assert.deepEqual(order, [1]);
    permits[1].finish({ kind: 'other' });
    await waiting[1];
    assert.deepEqual(order, [1, 2]);
  });

  it('drops a waiter whose call is aborted, without giving it a permit', async () => {
    const limiter = createAdaptiveLimiter(1);
    const held = await limiter.acquire();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    controller.abort(new Error('case cancelled'));
    await assert.rejects(aborted, /case cancelled/);
    held.finish({ kind: 'ok' });
    assert.equal(limiter.idle(), true);
  });

  it('holds every call of the key until the retry-after of a 429 has passed', async () => {
    const limiter = createAdaptiveLimiter(4);
    const throttling = limitedFetch(
      limiter,
      async () => new Response(null, { status: 429, headers: { 'retry-after-ms': '40' } }),
    );
    await throttling('http://127.0.0.1/v1/chat/completions');
    const { pausedUntil, limit } = limiter.state();
    assert.equal(limit, 1);
    const permit: Permit = await limiter.acquire();
    assert.ok(Date.now() >= pausedUntil, 'a call started before the pause ended');
    permit.finish({ kind: 'ok' });
  });

  it('gives the same limiter for a key, and forgets idle ones beyond the bound', async () => {
    const limiterFor = createLimiterRegistry(2);
    const first = limiterFor('a');
    assert.equal(limiterFor('a'), first);
    const busy = await limiterFor('b').acquire();
    limiterFor('c');
    assert.notEqual(limiterFor('a'), first, 'the idle, least recently used limiter was forgotten');
    busy.finish({ kind: 'ok' });
  });
});
