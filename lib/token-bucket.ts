/** A token bucket: up to `burst` takes at once, refilled continuously at `perSecond`. */
export interface TokenBucket {
  /** Takes one token; false when the bucket is empty. */
  take(): boolean;
  /** Whole tokens left now. */
  remaining(): number;
  /** Seconds until one token is back (0 when one is there). */
  secondsUntilOne(): number;
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
    take() {
      if (refill() < 1) return false;
      tokens -= 1;
      return true;
    },
    remaining: () => Math.floor(refill()),
    secondsUntilOne: () => Math.max(0, 1 - refill()) / perSecond,
    secondsUntilFull: () => (burst - refill()) / perSecond,
  };
}
