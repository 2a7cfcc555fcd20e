import assert from 'node:assert/strict';
import { once } from 'node:events';
import { armStops, stoppedMessage } from '../../cli/eval-run-watch';
import type { EvalRunJson } from '../../cli/eval-run.types';

const run = (status: EvalRunJson['status'], notScored?: number): EvalRunJson => ({
  id: 'run-1',
  eval_set_id: 'set-1',
  status,
  summary: notScored === undefined ? null : { pass_rate: 0, avg_score: {}, not_scored: notScored },
  scored_cases: 3,
  total_cases: 10,
});

describe('agent:eval stops (--timeout and Ctrl-C)', () => {
  const listeners = (): number => process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');

  it('aborts on the first Ctrl-C and exits on the next signal, and gives the signals back when disposed', () => {
    const before = listeners();
    let exits = 0;
    const stops = armStops(null, () => exits++);
    assert.equal(listeners(), before + 2);
    process.emit('SIGINT', 'SIGINT');
    assert.equal(stops.signal.aborted, true);
    assert.equal(stops.reason(), 'interrupt');
    assert.equal(exits, 0, 'the first Ctrl-C only cancels');
    process.emit('SIGTERM', 'SIGTERM');
    assert.equal(exits, 1, 'a SIGTERM after a Ctrl-C exits too');
    stops.dispose();
    assert.equal(listeners(), before);
  });

  it('aborts with reason timeout when the timer runs out, and a Ctrl-C after it still exits on the second', async () => {
    let exits = 0;
    const stops = armStops(1, () => exits++);
    await once(stops.signal, 'abort');
    assert.equal(stops.reason(), 'timeout');
    process.emit('SIGINT', 'SIGINT');
    assert.equal(stops.reason(), 'timeout');
    assert.equal(exits, 0);
    process.emit('SIGINT', 'SIGINT');
    assert.equal(exits, 1);
    stops.dispose();
  });

  it('says why the command stopped and how the run ended', () => {
    assert.equal(
      stoppedMessage(run('cancelled', 7), 'timeout', 60),
      'eval run run-1 did not end within --timeout 60 s; it ended cancelled: 3 cases scored, 7 not scored',
    );
    assert.equal(
      stoppedMessage(run('running'), 'interrupt', null),
      'eval run run-1 was interrupted; it was asked to cancel and is still running',
    );
  });
});
