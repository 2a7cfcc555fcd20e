import type { NextFunction, Request, Response } from 'express';
import { isUuid } from '../db/column-values';
import type { Db } from '../db/database';
import { findApiTokenByHash, findRole } from '../db/tenancy.repository';
import type { ApiToken } from '../db/tables/tenancy.table';
import { roleAllows, type Permission } from '../domain/permissions';
import { hashToken } from '../lib/api-tokens';
import { HttpError } from './http-error';

/** Who made a request: a person (through a personal token) or a workspace's service token (CI). */
export interface Actor {
  type: 'user' | 'service_token';
  /** The user's id, or the service token's id. */
  id: string;
}

/** Who is calling, and in which workspace. */
export interface AuthContext {
  actor: Actor;
  userId: string;
  tokenId: string;
  workspaceId: string;
  role: string;
}

const unauthorized = (message: string): HttpError => new HttpError(401, 'unauthorized', message);

/** The usable token an Authorization header names; 401 when it is missing, malformed, unknown, revoked or expired. */
export async function resolveToken(db: Db, authorization: string | undefined): Promise<ApiToken> {
  const match = /^Bearer ([A-Za-z0-9_\-.~+/]+=*)$/.exec(authorization ?? '');
  if (!authorization) throw unauthorized('missing Authorization header');
  if (!match) throw unauthorized('Authorization header must be "Bearer <token>"');
  const token = await findApiTokenByHash(db, hashToken(match[1]));
  if (!token) throw unauthorized('unknown token');
  if (token.revoked_at) throw unauthorized('token revoked');
  if (token.expires_at && token.expires_at.getTime() <= Date.now()) throw unauthorized('token expired');
  return token;
}

/** Resolves a bearer token and the current workspace (X-Workspace-Id, else the token's default). */
export async function authenticate(
  db: Db,
  authorization: string | undefined,
  workspaceHeader: string | undefined,
): Promise<AuthContext> {
  const token = await resolveToken(db, authorization);
  const workspaceId = workspaceHeader ?? token.default_workspace_id;
  if (!isUuid(workspaceId))
    throw new HttpError(400, 'invalid_header', 'X-Workspace-Id must be a UUID', { field: 'X-Workspace-Id' });
  const role = await findRole(db, workspaceId, token.user_id);
  if (!role) throw new HttpError(403, 'forbidden', 'not a member of this workspace');
  return { actor: { type: 'user', id: token.user_id }, userId: token.user_id, tokenId: token.id, workspaceId, role };
}

/** Express middleware: authenticates every request that reaches it. */
export function authMiddleware(db: Db) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    req.auth = await authenticate(db, req.get('authorization'), req.get('x-workspace-id'));
    next();
  };
}

/** Throws 403 unless the caller's role grants `permission`. */
export function requirePermission(auth: AuthContext, permission: Permission): void {
  if (!roleAllows(auth.role, permission)) {
    throw new HttpError(403, 'forbidden', `missing permission ${permission}`, { permission });
  }
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
