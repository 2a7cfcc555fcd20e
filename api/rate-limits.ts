import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../lib/config';
import { httpRateLimited } from '../lib/metrics';
import { HttpError } from './http-error';
import { createTokenBucket, type TokenBucket } from './token-bucket';

type Scope = 'token' | 'workspace';

/** One bucket per key of a scope, each holding a minute's quota and refilled evenly over the minute. */
class Buckets {
  private readonly buckets = new Map<string, TokenBucket>();
  private sweepAt = 1_024;

  constructor(
    readonly scope: Scope,
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

// RFC 8941 structured fields, as draft-ietf-httpapi-ratelimit-headers writes them: a policy per scope.
const policyHeader = (scopes: Buckets[]): string => scopes.map((s) => `"${s.scope}";q=${s.perMinute};w=60`).join(', ');
const stateHeader = (pairs: Array<[Buckets, TokenBucket]>): string =>
  pairs.map(([s, b]) => `"${s.scope}";r=${b.remaining()};t=${Math.ceil(b.secondsUntilFull())}`).join(', ');

/**
 * Per-process request quotas after authentication: a bucket per token and one per workspace (`RATE_LIMIT_*`). A
 * request takes from both or from neither; refused, it is answered 429 `rate_limited` with `Retry-After` at once,
 * before any handler or audit entry touches the database. Every answer carries `RateLimit` and `RateLimit-Policy`.
 */
export function rateLimits(config: Config) {
  const tokens = new Buckets('token', config.RATE_LIMIT_TOKEN_PER_MINUTE);
  const workspaces = new Buckets('workspace', config.RATE_LIMIT_WORKSPACE_PER_MINUTE);
  const policy = policyHeader([tokens, workspaces]);
  return (req: Request, res: Response, next: NextFunction): void => {
    const auth = req.auth;
    if (!auth) return next();
    const pairs: Array<[Buckets, TokenBucket]> = [
      [tokens, tokens.get(auth.tokenId)],
      [workspaces, workspaces.get(auth.workspaceId)],
    ];
    const empty = pairs.filter(([, bucket]) => bucket.remaining() < 1);
    if (empty.length === 0) for (const [, bucket] of pairs) bucket.take();
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit', stateHeader(pairs));
    if (empty.length === 0) return next();
    const retryAfter = Math.max(...empty.map(([, bucket]) => Math.ceil(bucket.secondsUntilOne())), 1);
    for (const [scope] of empty) httpRateLimited.inc({ scope: scope.scope });
    const names = empty.map(([scope]) => scope.scope).join(' and ');
    const error = new HttpError(429, 'rate_limited', `too many requests for this ${names}; retry in ${retryAfter} s`, {
      scope: empty[0][0].scope,
      retry_after_seconds: retryAfter,
    });
    res.setHeader('Retry-After', String(retryAfter));
    res.status(429).json(error.toJSON());
  };
}
