import { createTokenBucket, type TokenBucket } from './token-bucket';

/** What a bucket is kept per: a token or a workspace. */
export type RateScope = 'token' | 'workspace';

/** One bucket per key of a scope, each holding a minute's quota and refilled evenly over the minute. */
export class RateBuckets {
  private readonly buckets = new Map<string, TokenBucket>();
  private sweepAt = 1_024;

  constructor(
    readonly scope: RateScope,
    readonly perMinute: number,
  ) {}

  get(key: string): TokenBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      // Keys are ids of tokens that authenticated, so the map is bounded by the tokens that exist; full buckets say
      // no more than an absent one, so they are dropped whenever the map has doubled since the last sweep.
      if (this.buckets.size >= this.sweepAt) this.sweep();
      bucket = createTokenBucket(this.perMinute, this.perMinute / 60);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  private sweep(): void {
    for (const [key, bucket] of this.buckets) if (bucket.secondsUntilFull() === 0) this.buckets.delete(key);
    this.sweepAt = Math.max(1_024, this.buckets.size * 2);
  }
}

/** The buckets a request takes from, with their scopes. */
export type RatePairs = Array<[RateBuckets, TokenBucket]>;

/**
 * Takes `count` (one request's messages, one by default) from every bucket of `pairs`, or from none: answers the ones
 * short of it (none: the request may go on) and the whole seconds until each holds `count` again.
 */
export function takeFromAll(pairs: RatePairs, count = 1): { empty: RatePairs; retryAfterSeconds: number } {
  const empty = pairs.filter(([, bucket]) => bucket.remaining() < count);
  if (empty.length === 0) for (const [, bucket] of pairs) bucket.take(count);
  const retryAfterSeconds = Math.max(...empty.map(([, bucket]) => Math.ceil(bucket.secondsUntil(count))), 1);
  return { empty, retryAfterSeconds };
}
