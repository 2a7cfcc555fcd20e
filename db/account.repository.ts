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
