import type { NextFunction, Request, Response } from 'express';
import type { Db } from '../db/database';
import { authenticate, type AuthContext } from '../lib/token-auth';
import { HttpError } from './http-error';

export {
  authenticate,
  outOfScope,
  requirePermission,
  resolveToken,
  roleIn,
  type Actor,
  type AuthContext,
  type ResolvedToken,
} from '../lib/token-auth';

/** Express middleware: authenticates every request that reaches it. */
export function authMiddleware(db: Db) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    req.auth = await authenticate(db, req.get('authorization'), req.get('x-workspace-id'));
    next();
  };
}

/** The user behind the request; 403 `forbidden` saying `why` when the caller is a service token. */
export function requireUser(auth: AuthContext, why: string): string {
  if (auth.userId === null) throw new HttpError(403, 'forbidden', why);
  return auth.userId;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
      requestId?: string;
    }
  }
}
