import type { Db } from './database';

/** The profile `GET /api/me` shows of a user. */
export interface UserProfile {
  id: string;
  email: string;
  name: string;
  operator: boolean;
}

/** One workspace a caller may act in, with the role there. */
export interface MembershipSummary {
  workspace_id: string;
  name: string;
  role: string;
}

/** A user's profile, or undefined when there is no such user. */
export async function findUserProfile(db: Db, userId: string): Promise<UserProfile | undefined> {
  return db.selectFrom('users').select(['id', 'email', 'name', 'operator']).where('id', '=', userId).executeTakeFirst();
}

/** The first `limit` workspaces of a user by name (deleted ones left out), with the user's role in each. */
export async function listUserMemberships(db: Db, userId: string, limit: number): Promise<MembershipSummary[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select(['memberships.workspace_id', 'workspaces.name', 'memberships.role'])
    .where('memberships.user_id', '=', userId)
    .where('workspaces.deleted_at', 'is', null)
    .orderBy('workspaces.name')
    .orderBy('workspaces.id')
    .limit(limit)
    .execute();
}

/** A workspace's name, unless it is missing or deleted. */
export async function findWorkspaceName(db: Db, workspaceId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('workspaces')
    .select('name')
    .where('id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.name;
}

/** Finds a user by e-mail, creating it when missing. */
export async function ensureUser(db: Db, email: string, name: string): Promise<{ id: string }> {
  return db
    .insertInto('users')
    .values({ email, name })
    .onConflict((oc) => oc.column('email').doUpdateSet({ name }))
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

/** Finds a user by e-mail (never creating one). */
export async function findUserByEmail(db: Db, email: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
}

/** Makes a user an instance operator (idempotent). */
export async function grantOperator(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ operator: true }).where('id', '=', userId).execute();
}

/** Whether the user with `email` was made by an invitation and is not an operator yet. */
export async function isInvitedUser(db: Db, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select(['invited', 'operator'])
    .where('email', '=', email)
    .executeTakeFirst();
  return row?.invited === true && !row.operator;
}

/** Whether a user holds the instance-level operator permission. */
export async function isOperator(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('operator').where('id', '=', userId).executeTakeFirst();
  return row?.operator === true;
}
