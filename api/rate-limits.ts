import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../lib/config';
import { httpRateLimited } from '../lib/metrics';
import { HttpError } from './http-error';
import { RateBuckets as Buckets, takeFromAll, type RatePairs } from '../lib/rate-buckets';

// RFC 8941 structured fields, as draft-ietf-httpapi-ratelimit-headers writes them: a policy per scope.
const policyHeader = (scopes: Buckets[]): string => scopes.map((s) => `"${s.scope}";q=${s.perMinute};w=60`).join(', ');
const stateHeader = (pairs: RatePairs): string =>
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
    const pairs: RatePairs = [
      [tokens, tokens.get(auth.tokenId)],
      [workspaces, workspaces.get(auth.workspaceId)],
    ];
    const { empty, retryAfterSeconds: retryAfter } = takeFromAll(pairs);
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit', stateHeader(pairs));
    if (empty.length === 0) return next();
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
