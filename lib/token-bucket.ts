/** A token bucket: up to `burst` takes at once, refilled continuously at `perSecond`. */
export interface TokenBucket {
  /** Takes `count` tokens (one by default); false, taking none, when fewer are there. */
  take(count?: number): boolean;
  /** Whole tokens left now. */
  remaining(): number;
  /** Seconds until `count` tokens (one by default) are there (0 when they are). */
  secondsUntil(count?: number): number;
  /** Seconds until the bucket is full again (0 when it is). */
  secondsUntilFull(): number;
}

/**
 * A few lines of arithmetic rather than a dependency: the relay needs one bucket per socket, the api and the gateway one per token
 * and per workspace, each checked synchronously on every message or request, with no timers.
 */
export function createTokenBucket(burst: number, perSecond: number, now: () => number = Date.now): TokenBucket {
  let tokens = burst;
  let last = now();
  const refill = (): number => {
    const at = now();
    tokens = Math.min(burst, tokens + ((at - last) / 1000) * perSecond);
    last = at;
    return tokens;
  };
  return {
    take(count = 1) {
      if (refill() < count) return false;
      tokens -= count;
      return true;
    },
    remaining: () => Math.floor(refill()),
    secondsUntil: (count = 1) => Math.max(0, count - refill()) / perSecond,
    secondsUntilFull: () => (burst - refill()) / perSecond,
  };
}
