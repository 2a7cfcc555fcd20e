import type { Response } from 'express';
import type { Config } from '../lib/config';
import { HttpError } from '../lib/http-error';
import { httpRateLimited } from '../lib/metrics';
import { RateBuckets, takeFromAll } from '../lib/rate-buckets';
import type { AuthContext } from '../lib/token-auth';

/**
 * The gateway's quotas per token and per workspace (`GATEWAY_RATE_LIMIT_*`), the api's token buckets: every request
 * to /mcp after authentication takes one per JSON-RPC message it carries (a batch of 10 takes 10) from both or from
 * neither; refused, 429 `rate_limited` with `Retry-After`, or without it for a batch no bucket can ever hold.
 */
export function gatewayRateLimits(config: Config): (auth: AuthContext, res: Response, messages: number) => void {
  const tokens = new RateBuckets('token', config.GATEWAY_RATE_LIMIT_TOKEN_PER_MINUTE);
  const workspaces = new RateBuckets('workspace', config.GATEWAY_RATE_LIMIT_WORKSPACE_PER_MINUTE);
  return (auth, res, messages) => {
    const over = [tokens, workspaces].find((scope) => messages > scope.perMinute);
    if (over) {
      httpRateLimited.inc({ scope: `gateway_${over.scope}` });
      const message = `a batch of ${messages} messages is over this ${over.scope}'s quota of ${over.perMinute} a minute`;
      throw new HttpError(429, 'rate_limited', `${message}; send fewer at once`, {
        scope: over.scope,
        limit: over.perMinute,
      });
    }
    const { empty, retryAfterSeconds } = takeFromAll(
      [
        [tokens, tokens.get(auth.tokenId)],
        [workspaces, workspaces.get(auth.workspaceId)],
      ],
      messages,
    );
    if (empty.length === 0) return;
    for (const [scope] of empty) httpRateLimited.inc({ scope: `gateway_${scope.scope}` });
    res.setHeader('Retry-After', String(retryAfterSeconds));
    const names = empty.map(([scope]) => scope.scope).join(' and ');
    throw new HttpError(429, 'rate_limited', `too many requests for this ${names}; retry in ${retryAfterSeconds} s`, {
      scope: empty[0][0].scope,
      retry_after_seconds: retryAfterSeconds,
    });
  };
}
