import assert from 'node:assert/strict';
import { WaitAborted, waitFor } from '../../lib/embedded/process-utils';

describe('waitFor', () => {
  it('stops at once when a probe throws WaitAborted, with that error', async () => {
    const started = Date.now();
    await assert.rejects(
      waitFor(
        'x',
        async () => {
          throw new WaitAborted('server exited: port in use');
        },
        30_000,
      ),
      /server exited: port in use/,
    );
    assert.ok(Date.now() - started < 1_000);
  });

  it('keeps polling through ordinary probe errors until the probe succeeds', async () => {
    let calls = 0;
    await waitFor(
      'x',
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('connection refused');
        return true;
      },
      5_000,
    );
    assert.equal(calls, 3);
  });

  it('times out even when a probe never settles', async () => {
    await assert.rejects(
      waitFor('a silent server', () => new Promise<boolean>(() => undefined), 100),
      /timed out after 100 ms waiting for a silent server/,
    );
  });
});
