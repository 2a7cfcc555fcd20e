// Bearer-token authentication shared by the api and the gateway: token look-up, workspace and role, permission.
import { isUuid } from '../db/column-values';
import type { Db } from '../db/database';
import { findServiceTokenByHash } from '../db/service-token.repository';
import { findApiTokenByHash, touchTokenLastUsed } from '../db/api-token.repository';
import { findRole } from '../db/member.repository';
import type { ApiToken, ServiceToken } from '../db/tables/tenancy.table';
import { roleAllows, type Permission } from '../domain/tenancy/permissions';
import { SERVICE_TOKEN_PREFIX, hashToken } from './api-tokens';
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
  /** The user behind a personal token; null for a service token. */
  userId: string | null;
  tokenId: string;
  workspaceId: string;
  role: string;
  /** The one workspace a scoped personal token (an invitation's) acts in; unset: wherever the user is a member. */
  scopeWorkspaceId?: string;
}

/** The usable token a request carries: a user's personal token or a workspace's service token. */
export type ResolvedToken = { kind: 'user'; token: ApiToken } | { kind: 'service_token'; token: ServiceToken };

const unauthorized = (message: string): HttpError => new HttpError(401, 'unauthorized', message);

/** 403 for a scoped personal token used in another workspace than its own. */
export const outOfScope = (): HttpError =>
  new HttpError(403, 'forbidden', 'this token acts only in the workspace it was issued for');

/** `last_used_at` is written at most this often per token, so a busy token does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

async function lookUp(db: Db, plain: string): Promise<ResolvedToken | undefined> {
  const hash = hashToken(plain);
  // A personal token could, once in 64^4, start like a service token: it is then found on the second look-up.
  const service = plain.startsWith(SERVICE_TOKEN_PREFIX) ? await findServiceTokenByHash(db, hash) : undefined;
  if (service) return { kind: 'service_token', token: service };
  const personal = await findApiTokenByHash(db, hash);
  return personal ? { kind: 'user', token: personal } : undefined;
}

/** The usable token an Authorization header names; 401 when it is missing, malformed, unknown, revoked or expired. */
export async function resolveToken(db: Db, authorization: string | undefined): Promise<ResolvedToken> {
  const match = /^Bearer ([A-Za-z0-9_\-.~+/]+=*)$/.exec(authorization ?? '');
  if (!authorization) throw unauthorized('missing Authorization header');
  if (!match) throw unauthorized('Authorization header must be "Bearer <token>"');
  const resolved = await lookUp(db, match[1]);
  if (!resolved) throw unauthorized('unknown token');
  const { token } = resolved;
  if (token.revoked_at) throw unauthorized('token revoked');
  if (token.expires_at && token.expires_at.getTime() <= Date.now()) throw unauthorized('token expired');
  if (!token.last_used_at || Date.now() - token.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS)
    await touchTokenLastUsed(db, resolved.kind === 'user' ? 'api_tokens' : 'service_tokens', token.id);
  return resolved;
}

/**
 * The caller's role in `workspaceId`, or undefined when it may not act there: a user's membership (read on every
 * call, so a role change applies at once); a service token's own role, in its own workspace only.
 */
export async function roleIn(
  db: Db,
  auth: Pick<AuthContext, 'userId' | 'workspaceId' | 'role' | 'scopeWorkspaceId'>,
  workspaceId: string,
): Promise<string | undefined> {
  if (auth.userId === null) return workspaceId === auth.workspaceId ? auth.role : undefined;
  if (auth.scopeWorkspaceId !== undefined && workspaceId !== auth.scopeWorkspaceId) return undefined;
  return findRole(db, workspaceId, auth.userId);
}

function requireUuidHeader(workspaceId: string): void {
  if (!isUuid(workspaceId))
    throw new HttpError(400, 'invalid_header', 'X-Workspace-Id must be a UUID', { field: 'X-Workspace-Id' });
}

/** Resolves a bearer token and the current workspace (X-Workspace-Id, else the token's own or default workspace). */
export async function authenticate(
  db: Db,
  authorization: string | undefined,
  workspaceHeader: string | undefined,
): Promise<AuthContext> {
  const resolved = await resolveToken(db, authorization);
  if (resolved.kind === 'service_token') {
    const { id, workspace_id: own, role } = resolved.token;
    const workspaceId = workspaceHeader ?? own;
    requireUuidHeader(workspaceId);
    if (workspaceId !== own) throw new HttpError(403, 'forbidden', 'a service token acts only in its own workspace');
    return { actor: { type: 'service_token', id }, userId: null, tokenId: id, workspaceId, role };
  }
  const { id, user_id: userId, default_workspace_id: defaultWorkspaceId, scope_workspace_id: scope } = resolved.token;
  const workspaceId = workspaceHeader ?? defaultWorkspaceId;
  requireUuidHeader(workspaceId);
  if (scope !== null && workspaceId !== scope) throw outOfScope();
  const role = await findRole(db, workspaceId, userId);
  if (!role) throw new HttpError(403, 'forbidden', 'not a member of this workspace');
  const user = { actor: { type: 'user' as const, id: userId }, userId, tokenId: id, workspaceId, role };
  return scope === null ? user : { ...user, scopeWorkspaceId: scope };
}

/** Throws 403 unless the caller's role grants `permission`. */
export function requirePermission(auth: AuthContext, permission: Permission): void {
  if (!roleAllows(auth.role, permission)) {
    throw new HttpError(403, 'forbidden', `missing permission ${permission}`, { permission });
  }
}
