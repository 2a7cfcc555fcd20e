import { sql } from 'kysely';
import type { Db } from './database';

/** Stores the claim of a person to a workspace (only the code's hash), replacing an earlier one of the same pair. */
export async function upsertInvitationClaim(
  db: Db,
  claim: { workspaceId: string; userId: string; codeHash: string; expiresAt: Date },
): Promise<void> {
  const row = { code_hash: claim.codeHash, expires_at: claim.expiresAt, claimed_at: null };
  await db
    .insertInto('invitation_claims')
    .values({ workspace_id: claim.workspaceId, user_id: claim.userId, ...row })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet(row))
    .execute();
}

/**
 * Redeems a claim: marks it used and answers its workspace, only when the code is `userId`'s, unused, unexpired and
 * the person still a member of a live workspace; else undefined, and a claim that is not the caller's stays unused.
 * One conditional update, so two redemptions at once cannot both succeed.
 */
export async function redeemInvitationClaim(
  db: Db,
  claim: { codeHash: string; userId: string },
): Promise<{ workspace_id: string } | undefined> {
  return db
    .updateTable('invitation_claims')
    .set({ claimed_at: sql<Date>`now()` })
    .where('code_hash', '=', claim.codeHash)
    .where('user_id', '=', claim.userId)
    .where('claimed_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('memberships')
          .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
          .select('memberships.user_id')
          .whereRef('memberships.workspace_id', '=', 'invitation_claims.workspace_id')
          .whereRef('memberships.user_id', '=', 'invitation_claims.user_id')
          .where('workspaces.deleted_at', 'is', null),
      ),
    )
    .returning('workspace_id')
    .executeTakeFirst();
}
