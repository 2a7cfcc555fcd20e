import { isUuid } from '../db/column-values';
import type { Db } from '../db/database';
import { findRole } from '../db/member.repository';
import { outOfScope, type AuthContext } from './auth';
import { HttpError } from './http-error';

/**
 * The caller's context in the workspace a path names (`/api/workspaces/{id}`) instead of the header's: their role
 * there. Not a member, or the workspace is deleted or does not exist: 404, so a workspace's existence is not revealed.
 * A service token acts in its own workspace only; a scoped personal token elsewhere is 403, as with X-Workspace-Id.
 */
export async function authInWorkspace(db: Db, auth: AuthContext, workspaceId: string): Promise<AuthContext> {
  const notFound = new HttpError(404, 'not_found', 'workspace not found');
  if (!isUuid(workspaceId)) throw notFound;
  if (auth.actor.type !== 'user') {
    if (workspaceId !== auth.workspaceId) throw notFound;
    return auth;
  }
  if (auth.scopeWorkspaceId !== undefined && workspaceId !== auth.scopeWorkspaceId) throw outOfScope();
  const role = await findRole(db, workspaceId, auth.actor.id);
  if (!role) throw notFound;
  return { ...auth, workspaceId, role };
}
