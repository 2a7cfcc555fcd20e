import { sql } from 'kysely';
import { membershipRefusal, type MembershipRefusal } from '../domain/tenancy/membership-rules';
import { roleAllows } from '../domain/tenancy/permissions';
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
        .values({ email, name: email, invited: true })
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

/** Who asks for a membership change: a user (role read under the lock), or a service token with its own role. */
export interface MembershipCaller {
  userId: string | null;
  role: string;
}

/**
 * Locks the workspace's owner rows and the caller's own, then reads the caller's role as it is now: two owners
 * granting and demoting at once are serialised, and the second sees the first's change. Undefined when the caller
 * may no longer manage members. Call inside a transaction.
 */
export async function lockCallerRole(
  trx: Db,
  workspaceId: string,
  caller: MembershipCaller,
): Promise<{ role: string | undefined; owners: number }> {
  const owners = await trx
    .selectFrom('memberships')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .forUpdate()
    .execute();
  const own =
    caller.userId === null
      ? { role: caller.role }
      : await trx
          .selectFrom('memberships')
          .select('role')
          .where('workspace_id', '=', workspaceId)
          .where('user_id', '=', caller.userId)
          .forUpdate()
          .executeTakeFirst();
  const role = own && roleAllows(own.role, 'members:manage') ? own.role : undefined;
  return { role, owners: owners.length };
}

/** What changing or removing a member did (`forbidden`: the caller may no longer manage members). */
export type MembershipOutcome =
  { outcome: 'done'; member: Member } | { outcome: 'not_found' | 'forbidden' | MembershipRefusal };

/**
 * Gives a member `newRole`, or removes them (`null`), unless the rules refuse it. The workspace's owner rows and the
 * caller's are locked first, so two owners demoting each other at once cannot leave the workspace without one, and a
 * caller's role is the one they hold when the change applies.
 */
export async function changeMembership(
  db: Db,
  change: { workspaceId: string; userId: string; caller: MembershipCaller; newRole: string | null },
): Promise<MembershipOutcome> {
  return db.transaction().execute(async (trx) => {
    const { role: callerRole, owners } = await lockCallerRole(trx, change.workspaceId, change.caller);
    if (callerRole === undefined) return { outcome: 'forbidden' };
    const member = await findMember(trx, change.workspaceId, change.userId);
    if (!member) return { outcome: 'not_found' };
    const refusal = membershipRefusal({ callerRole, newRole: change.newRole, currentRole: member.role, owners });
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

/** Gives a user a role in a workspace (replacing any earlier role). */
export async function upsertMembership(db: Db, workspaceId: string, userId: string, role: string): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ workspace_id: workspaceId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}

/** The user's role in a workspace, or undefined when not a member or the workspace is deleted. */
export async function findRole(db: Db, workspaceId: string, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select('memberships.role')
    .where('memberships.workspace_id', '=', workspaceId)
    .where('memberships.user_id', '=', userId)
    .where('workspaces.deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.role;
}
