/**
 * Adaptive concurrency towards one provider key (AIMD): the limit halves on a 429 (from the calls then in flight when
 * fewer, never below 1) and grows by one per success window (`limit` successes in a row) up to a ceiling; a 429's
 * `retry-after` pauses every call for the key. Pure: the caller passes the clock and keeps the state.
 */
export interface AimdState {
  /** Calls that may be in flight at once. */
  limit: number;
  inFlight: number;
  /** Successes in a row of calls started since the last decrease: `limit` of them grow the limit by one. */
  successes: number;
  /** Bumped by each decrease; a call remembers the epoch it started in, so one burst of 429s halves only once. */
  epoch: number;
  /** No call starts before this instant (ms since the epoch): the provider's `retry-after`. */
  pausedUntil: number;
  ceiling: number;
}

/** Bounds of the machine: the default ceiling (the most eval concurrency a worker runs) and the longest pause honoured. */
export const AIMD = {
  ceiling: 256,
  /** A longer `retry-after` (a misconfigured or hostile endpoint) would stall every case of the key for minutes. */
  maxPauseMs: 60_000,
} as const;

/** What a call's HTTP attempt came to: `throttled` is a 429, `ok` a 2xx, `other` anything else (no signal either way). */
export type AimdOutcome = { kind: 'ok' } | { kind: 'other' } | { kind: 'throttled'; retryAfterMs: number | null };

/** A fresh key: unthrottled until its first 429 (the limit starts at the ceiling). */
export function initialAimd(ceiling: number = AIMD.ceiling): AimdState {
  const top = Math.max(1, Math.floor(ceiling));
  return { limit: top, inFlight: 0, successes: 0, epoch: 0, pausedUntil: 0, ceiling: top };
}

/** Whether one more call may start at `now`. */
export function mayStart(state: AimdState, now: number): boolean {
  return now >= state.pausedUntil && state.inFlight < state.limit;
}

/** A call starts: counts it in flight and returns the epoch it started in (pass it back to {@link finishCall}). */
export function startCall(state: AimdState): { state: AimdState; epoch: number } {
  return { state: { ...state, inFlight: state.inFlight + 1 }, epoch: state.epoch };
}

/** A call started in `epoch` ended with `outcome` at `now`. */
export function finishCall(state: AimdState, epoch: number, outcome: AimdOutcome, now: number): AimdState {
  const ended = { ...state, inFlight: Math.max(0, state.inFlight - 1) };
  // A call started before the last decrease says nothing about the current limit.
  const current = epoch === state.epoch;
  if (outcome.kind === 'throttled') {
    const pause = Math.min(Math.max(outcome.retryAfterMs ?? 0, 0), AIMD.maxPauseMs);
    const paused = { ...ended, pausedUntil: Math.max(ended.pausedUntil, now + pause) };
    if (!current) return paused;
    // Halves what was really in flight: a limit never reached (the ceiling, at first) says nothing about the provider.
    const reached = Math.min(state.limit, state.inFlight);
    return { ...paused, limit: Math.max(1, Math.floor(reached / 2)), successes: 0, epoch: state.epoch + 1 };
  }
  if (outcome.kind === 'other' || !current) return ended;
  const successes = ended.successes + 1;
  if (successes < ended.limit) return { ...ended, successes };
  return { ...ended, limit: Math.min(ended.ceiling, ended.limit + 1), successes: 0 };
}

/**
 * How long a 429 asks to wait, in ms: `retry-after-ms` (OpenAI's), else `retry-after` as seconds or an HTTP date;
 * null when absent or unreadable. Not capped here: {@link finishCall} caps the pause.
 */
export function retryAfterMs(header: (name: string) => string | null, now: number): number | null {
  const millis = Number.parseFloat(header('retry-after-ms') ?? '');
  if (Number.isFinite(millis)) return Math.max(0, millis);
  const value = header('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
