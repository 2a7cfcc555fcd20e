import crypto from 'node:crypto';
import type { Db } from '../../db/database';
import { ensureUser } from '../../db/account.repository';
import { upsertMembership } from '../../db/member.repository';
import { createWorkspace } from '../../db/workspace.repository';
import { issueToken } from '../../lib/api-tokens';

/** A workspace with one member of `role` and a token for them. */
export interface Tenant {
  workspaceId: string;
  userId: string;
  token: string;
  auth: { Authorization: string };
}

/** Creates a fresh workspace, user, membership and token. */
export async function createTenant(db: Db, role = 'owner', expiresAt: Date | null = null): Promise<Tenant> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const workspace = await createWorkspace(db, `ws-${suffix}`);
  const user = await ensureUser(db, `user-${suffix}@example.test`, `User ${suffix}`);
  await upsertMembership(db, workspace.id, user.id, role);
  const { token } = await issueToken(db, { userId: user.id, workspaceId: workspace.id, name: 'test', expiresAt });
  return { workspaceId: workspace.id, userId: user.id, token, auth: { Authorization: `Bearer ${token}` } };
}
