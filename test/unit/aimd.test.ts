import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AIMD,
  finishCall,
  initialAimd,
  mayStart,
  retryAfterMs,
  startCall,
  type AimdOutcome,
  type AimdState,
} from '../../domain/aimd';

const OK: AimdOutcome = { kind: 'ok' };
const throttled = (retryAfter: number | null = null): AimdOutcome => ({ kind: 'throttled', retryAfterMs: retryAfter });

// Starts one call and ends it with `outcome` at `now`.
function oneCall(state: AimdState, outcome: AimdOutcome, now = 0): AimdState {
  const started = startCall(state);
  return finishCall(started.state, started.epoch, outcome, now);
}

// Fills the limit with calls, then one of them meets a 429 and the others end without a signal.
function throttledAtLimit(state: AimdState): AimdState {
  const epochs: number[] = [];
  while (state.inFlight < state.limit) {
    const started = startCall(state);
    state = started.state;
    epochs.push(started.epoch);
  }
  state = finishCall(state, epochs[0], throttled(), 0);
  for (const epoch of epochs.slice(1)) state = finishCall(state, epoch, { kind: 'other' }, 0);
  return state;
}

describe('adaptive concurrency towards one provider key (AIMD)', () => {
  it('starts at the ceiling and lets calls start up to the limit', () => {
    let state = initialAimd(3);
    assert.equal(state.limit, 3);
    for (let i = 0; i < 3; i++) {
      assert.equal(mayStart(state, 0), true);
      state = startCall(state).state;
    }
    assert.equal(mayStart(state, 0), false);
  });

  it('halves the limit on a 429, and never below 1', () => {
    const halvings = [64, 32, 16, 8, 4, 2, 1, 1];
    let state = initialAimd(64);
    for (const expected of halvings) {
      assert.equal(state.limit, expected);
      state = throttledAtLimit(state);
    }
  });

  it('halves once for a burst of 429s, from the calls in flight when the limit was never reached', () => {
    let state = initialAimd(32);
    const epochs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = startCall(state);
      state = started.state;
      epochs.push(started.epoch);
    }
    for (const epoch of epochs) state = finishCall(state, epoch, throttled(), 0);
    assert.equal(state.limit, 10);
    assert.equal(state.inFlight, 0);
  });

  it('pauses every call until retry-after has passed, capped at a minute', () => {
    let state = oneCall(initialAimd(8), throttled(1_500), 10_000);
    assert.equal(mayStart(state, 11_499), false);
    assert.equal(mayStart(state, 11_500), true);
    state = oneCall(state, throttled(3_600_000), 20_000);
    assert.equal(state.pausedUntil, 20_000 + AIMD.maxPauseMs);
    const unpaused = oneCall(initialAimd(8), throttled(null), 5_000);
    assert.equal(mayStart(unpaused, 5_000), true);
  });

  it('grows the limit by one per window of `limit` successes in a row, up to the ceiling', () => {
    let state = throttledAtLimit(throttledAtLimit(initialAimd(10))); // 10 → 5 → 2
    assert.equal(state.limit, 2);
    const limits: number[] = [];
    for (let i = 0; i < 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10; i++) {
      state = oneCall(state, OK);
      limits.push(state.limit);
    }
    assert.deepEqual(
      [2, 3, 4, 5, 6, 7, 8, 9].map((limit) => limits.indexOf(limit + 1)),
      [1, 4, 8, 13, 19, 26, 34, 43],
    );
    assert.equal(state.limit, 10);
  });

  it('counts neither other failures nor successes of calls started before the last decrease', () => {
    let state = initialAimd(4);
    const before = startCall(startCall(startCall(state).state).state);
    state = oneCall(before.state, throttled()); // 4 in flight: limit 2, epoch 1
    state = finishCall(state, before.epoch, OK, 0);
    assert.equal(state.successes, 0);
    state = oneCall(state, { kind: 'other' });
    assert.deepEqual([state.limit, state.successes, state.inFlight], [2, 0, 2]);
  });

  it('keeps the limit within 1 … ceiling and in-flight counts exact for any sequence of outcomes', () => {
    const outcome = fc.oneof(
      fc.constant<AimdOutcome>(OK),
      fc.constant<AimdOutcome>({ kind: 'other' }),
      fc.option(fc.nat(200_000)).map((ms) => throttled(ms)),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.array(fc.tuple(fc.boolean(), outcome)), (ceiling, steps) => {
        let state = initialAimd(ceiling);
        const open: number[] = [];
        for (const [start, result] of steps) {
          if (start || open.length === 0) {
            const started = startCall(state);
            state = started.state;
            open.push(started.epoch);
          } else state = finishCall(state, open.shift()!, result, 0);
          assert.ok(state.limit >= 1 && state.limit <= ceiling);
          assert.equal(state.inFlight, open.length);
          assert.ok(state.pausedUntil <= AIMD.maxPauseMs);
        }
      }),
    );
  });

  it('reads retry-after as seconds or an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;
    assert.equal(retryAfterMs(headers({ 'retry-after': '2' }), now), 2_000);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now), 5_000);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now), 0);
    assert.equal(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now), 250);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'soon' }), now), null);
    assert.equal(retryAfterMs(headers({}), now), null);
  });
});
