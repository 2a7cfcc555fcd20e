import { sql } from 'kysely';
import { membershipRefusal, type MembershipRefusal } from '../domain/membership-rules';
import type { Db } from './database';
import { keysetPage, type KeysetOrder, type Page, type PageParams } from './keyset-page';

/** A member of a workspace as the API shows it. */
export interface Member {
  user_id: string;
  email: string;
  name: string;
  role: string;
  created_at: Date;
}

const MEMBERS_OLDEST_FIRST: KeysetOrder = {
  keys: [
    { ref: 'memberships.created_at', kind: 'time' },
    { ref: 'memberships.user_id', kind: 'uuid' },
  ],
  direction: 'asc',
};

const members = (db: Db, workspaceId: string) =>
  db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.user_id', 'users.email', 'users.name', 'memberships.role'])
    .select(sql<Date>`memberships.created_at`.as('created_at'))
    .where('memberships.workspace_id', '=', workspaceId);

/** A workspace's members, oldest first. */
export async function listMembers(db: Db, workspaceId: string, page: PageParams): Promise<Page<Member>> {
  return keysetPage(members(db, workspaceId), MEMBERS_OLDEST_FIRST, page);
}

/** One member of a workspace, or undefined. */
export async function findMember(db: Db, workspaceId: string, userId: string): Promise<Member | undefined> {
  return members(db, workspaceId).where('memberships.user_id', '=', userId).executeTakeFirst();
}

/** What adding a member by e-mail did: `created` when no user had that e-mail (the user was made now). */
export type AddedMember = { outcome: 'added'; member: Member; created: boolean } | { outcome: 'already_member' };

/** Adds the user with `email` (created when missing) to a workspace with `role`; a member already is left alone. */
export async function addMember(db: Db, workspaceId: string, email: string, role: string): Promise<AddedMember> {
  const existing = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  const userId =
    existing?.id ??
    (
      await db
        .insertInto('users')
        .values({ email, name: email })
        .onConflict((oc) => oc.column('email').doUpdateSet({ email }))
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const inserted = await db
    .insertInto('memberships')
    .values({ workspace_id: workspaceId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  if (!inserted) return { outcome: 'already_member' };
  const member = await findMember(db, workspaceId, userId);
  if (!member) throw new Error('member vanished while being added');
  return { outcome: 'added', member, created: existing === undefined };
}

/** What changing or removing a member did. */
export type MembershipOutcome = { outcome: 'done'; member: Member } | { outcome: 'not_found' | MembershipRefusal };

/**
 * Gives a member `newRole`, or removes them (`null`), unless the rules refuse it. The workspace's owner rows are locked
 * first, so two owners demoting each other at once cannot leave the workspace without one.
 */
export async function changeMembership(
  db: Db,
  change: { workspaceId: string; userId: string; callerRole: string; newRole: string | null },
): Promise<MembershipOutcome> {
  return db.transaction().execute(async (trx) => {
    const owners = await trx
      .selectFrom('memberships')
      .select('user_id')
      .where('workspace_id', '=', change.workspaceId)
      .where('role', '=', 'owner')
      .forUpdate()
      .execute();
    const member = await findMember(trx, change.workspaceId, change.userId);
    if (!member) return { outcome: 'not_found' };
    const refusal = membershipRefusal({ ...change, currentRole: member.role, owners: owners.length });
    if (refusal) return { outcome: refusal };
    if (change.newRole === null) {
      await trx
        .deleteFrom('memberships')
        .where('workspace_id', '=', change.workspaceId)
        .where('user_id', '=', change.userId)
        .execute();
      return { outcome: 'done', member };
    }
    await trx
      .updateTable('memberships')
      .set({ role: change.newRole })
      .where('workspace_id', '=', change.workspaceId)
      .where('user_id', '=', change.userId)
      .execute();
    return { outcome: 'done', member: { ...member, role: change.newRole } };
  });
}
