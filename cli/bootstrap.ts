import type { Db } from '../db/database';
import { ensureUser, grantOperator } from '../db/account.repository';
import { upsertMembership } from '../db/member.repository';
import { createWorkspace, findFirstWorkspace } from '../db/workspace.repository';
import { personalTokenExpiry, type TokenMaxDays } from '../domain/tenancy/token-lifetime';
import { issueToken } from '../lib/api-tokens';

const OWNER_EMAIL = 'owner@assay.local';

/**
 * On a first start: a default workspace, its owner (also the instance's first operator) and a token (returned once).
 * Later starts return no token.
 */
export async function bootstrapDefaultWorkspace(
  db: Db,
  maxDays: TokenMaxDays,
): Promise<{ workspaceId: string; token: string | null }> {
  const existing = await findFirstWorkspace(db);
  if (existing) return { workspaceId: existing.id, token: null };
  const workspace = await createWorkspace(db, 'default');
  const owner = await ensureUser(db, OWNER_EMAIL, 'Owner');
  await upsertMembership(db, workspace.id, owner.id, 'owner');
  await grantOperator(db, owner.id);
  const expiresAt = personalTokenExpiry(undefined, maxDays, null, Date.now());
  const { token } = await issueToken(db, {
    userId: owner.id,
    workspaceId: workspace.id,
    name: 'assay start',
    expiresAt,
  });
  return { workspaceId: workspace.id, token };
}
