/** A token bucket: up to `burst` takes at once, refilled continuously at `perSecond`. */
export interface TokenBucket {
  /** Takes one token; false when the bucket is empty. */
  take(): boolean;
}

/**
 * Ten lines of arithmetic rather than a dependency: the relay needs one bucket per socket, checked synchronously on
 * each message, with no timers.
 */
export function createTokenBucket(burst: number, perSecond: number, now: () => number = Date.now): TokenBucket {
  let tokens = burst;
  let last = now();
  return {
    take() {
      const at = now();
      tokens = Math.min(burst, tokens + ((at - last) / 1000) * perSecond);
      last = at;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
