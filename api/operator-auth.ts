import type { NextFunction, Request, Response } from 'express';
import type { Db } from '../db/database';
import { isOperator } from '../db/account.repository';
import { resolveToken } from './auth';
import { HttpError } from './http-error';

/** Who called an operator route: an operator's user and token, or nobody (the loopback exception below). */
export interface OperatorCaller {
  userId: string | null;
  tokenId: string | null;
}

/**
 * Express middleware for instance-level operator routes: a bearer token whose user is an operator passes; a missing or
 * bad token is 401 and a valid token of a non-operator (a workspace owner or a service token included) is 403. With `tokenless`, a request
 * with no Authorization header at all passes as nobody: only `assay start`'s embedded Temporal UI gets that, on a
 * loopback-only api, because that UI has no sign-in and so no token to send. The caller is left in
 * `res.locals.operator`.
 */
export function requireOperator(db: Db, options: { tokenless: boolean }) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const authorization = req.get('authorization');
    if (authorization === undefined && options.tokenless) {
      res.locals.operator = { userId: null, tokenId: null } satisfies OperatorCaller;
      next();
      return;
    }
    const resolved = await resolveToken(db, authorization);
    // A service token has no user, so it is never an operator; a token scoped to one workspace acts for none other.
    const userId =
      resolved.kind === 'user' && resolved.token.scope_workspace_id === null ? resolved.token.user_id : null;
    if (!userId || !(await isOperator(db, userId)))
      throw new HttpError(403, 'forbidden', 'missing permission operator', { permission: 'operator' });
    res.locals.operator = { userId, tokenId: resolved.token.id } satisfies OperatorCaller;
    next();
  };
}
