import type { RequestInit, Response } from 'undici';
import * as aimd from '../../../domain/aimd';

/** One call's right to be in flight; `finish` reports how it went (only its first call counts). */
export interface Permit {
  finish(outcome: aimd.AimdOutcome): void;
}

/** The calls of one provider key on this worker: at most `limit` in flight, FIFO waiters, paused by `retry-after`. */
export interface AdaptiveLimiter {
  acquire(signal?: AbortSignal | null): Promise<Permit>;
  state(): aimd.AimdState;
  /** No call in flight and none waiting: safe to forget. */
  idle(): boolean;
}

interface Waiter {
  grant(permit: Permit): void;
  signal?: AbortSignal | null;
}

/** Builds a limiter around the pure AIMD machine of domain/aimd.ts; the timer only wakes waiters after a pause. */
export function createAdaptiveLimiter(ceiling?: number): AdaptiveLimiter {
  let state = aimd.initialAimd(ceiling);
  const waiters: Waiter[] = [];
  let wake: NodeJS.Timeout | undefined;

  const permit = (): Permit => {
    const started = aimd.startCall(state);
    state = started.state;
    let finished = false;
    return {
      finish(outcome) {
        if (finished) return;
        finished = true;
        state = aimd.finishCall(state, started.epoch, outcome, Date.now());
        pump();
      },
    };
  };

  const pump = (): void => {
    while (waiters.length > 0 && aimd.mayStart(state, Date.now())) waiters.shift()!.grant(permit());
    const pausedFor = state.pausedUntil - Date.now();
    if (waiters.length > 0 && pausedFor > 0 && wake === undefined) {
      wake = setTimeout(() => {
        wake = undefined;
        pump();
      }, pausedFor);
    }
  };

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (waiters.length === 0 && aimd.mayStart(state, Date.now())) return Promise.resolve(permit());
      return new Promise<Permit>((resolve, reject) => {
        const onAbort = (): void => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          reject(signal?.reason);
        };
        const waiter: Waiter = {
          signal,
          grant(granted) {
            signal?.removeEventListener('abort', onAbort);
            resolve(granted);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
        pump();
      });
    },
    state: () => ({ ...state }),
    idle: () => state.inFlight === 0 && waiters.length === 0,
  };
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Wraps a fetch so each HTTP attempt first takes a permit and reports its status (a 429 with its `retry-after`). */
export function limitedFetch(limiter: AdaptiveLimiter, fetch: Fetch): Fetch {
  return async (url, init) => {
    const permit = await limiter.acquire(init?.signal);
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      permit.finish({ kind: 'other' });
      throw error;
    }
    permit.finish(outcomeOf(response));
    return response;
  };
}

function outcomeOf(response: Response): aimd.AimdOutcome {
  if (response.status === 429)
    return { kind: 'throttled', retryAfterMs: aimd.retryAfterMs((name) => response.headers.get(name), Date.now()) };
  return response.ok ? { kind: 'ok' } : { kind: 'other' };
}

/** Limiters by provider key (a fingerprint, never the key), least recently used first; idle ones beyond `max` go. */
export function createLimiterRegistry(max: number, ceiling?: number): (key: string) => AdaptiveLimiter {
  const limiters = new Map<string, AdaptiveLimiter>();
  return (key) => {
    const found = limiters.get(key);
    if (found) {
      limiters.delete(key);
      limiters.set(key, found);
      return found;
    }
    // Map keeps insertion order, so the first entries are the least recently used; a busy one is kept, whatever the size.
    for (const [old, limiter] of limiters) {
      if (limiters.size < max) break;
      if (limiter.idle()) limiters.delete(old);
    }
    const created = createAdaptiveLimiter(ceiling);
    limiters.set(key, created);
    return created;
  };
}
