import { sql } from 'kysely';
import type { Db } from './database';
import { keysetPage, type KeysetOrder, type Page, type PageParams } from './keyset-page';

/** A workspace as its members see it: with the caller's role. */
export interface MyWorkspace {
  id: string;
  name: string;
  role: string;
  created_at: Date;
}

const WORKSPACES_OLDEST_FIRST: KeysetOrder = {
  keys: [
    { ref: 'workspaces.created_at', kind: 'time' },
    { ref: 'workspaces.id', kind: 'uuid' },
  ],
  direction: 'asc',
};

/**
 * Creates a workspace with `userId` as its owner, in one transaction, unless the user already owns `maxOwned` live
 * workspaces (null: no bound). The user row is locked so two concurrent creations cannot both take the last place.
 */
export async function createOwnedWorkspace(
  db: Db,
  name: string,
  userId: string,
  maxOwned: number | null,
): Promise<MyWorkspace | { full: number }> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const { owned } = await trx
      .selectFrom('memberships')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select((eb) => eb.fn.countAll<string>().as('owned'))
      .where('memberships.user_id', '=', userId)
      .where('memberships.role', '=', 'owner')
      .where('workspaces.deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (maxOwned !== null && Number(owned) >= maxOwned) return { full: Number(owned) };
    const workspace = await trx
      .insertInto('workspaces')
      .values({ name })
      .returning(['id', 'name'])
      // The table types created_at as never written; it reads back as a Date.
      .returning(sql<Date>`created_at`.as('created_at'))
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('memberships')
      .values({ workspace_id: workspace.id, user_id: userId, role: 'owner' })
      .execute();
    return { ...workspace, role: 'owner' };
  });
}

/** The workspaces a user is a member of (deleted ones left out), oldest first. */
export async function listMyWorkspaces(db: Db, userId: string, page: PageParams): Promise<Page<MyWorkspace>> {
  const query = db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select(['workspaces.id', 'workspaces.name', 'memberships.role'])
    .select(sql<Date>`workspaces.created_at`.as('created_at'))
    .where('memberships.user_id', '=', userId)
    .where('workspaces.deleted_at', 'is', null);
  return keysetPage(query, WORKSPACES_OLDEST_FIRST, page);
}

/** A workspace that is not deleted, or undefined. */
export async function findWorkspace(
  db: Db,
  workspaceId: string,
): Promise<{ id: string; name: string; created_at: Date } | undefined> {
  return db
    .selectFrom('workspaces')
    .select(['id', 'name'])
    .select(sql<Date>`created_at`.as('created_at'))
    .where('id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Renames a workspace that is not deleted; answers it, or undefined when there is none. */
export async function renameWorkspace(
  db: Db,
  workspaceId: string,
  name: string,
): Promise<{ id: string; name: string; created_at: Date } | undefined> {
  return db
    .updateTable('workspaces')
    .set({ name })
    .where('id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .returning(['id', 'name'])
    .returning(sql<Date>`created_at`.as('created_at'))
    .executeTakeFirst();
}

/** Marks a workspace deleted (unusable from now on); idempotent. */
export async function markWorkspaceDeleted(db: Db, workspaceId: string): Promise<void> {
  await db
    .updateTable('workspaces')
    .set({ deleted_at: new Date() })
    .where('id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Undoes `markWorkspaceDeleted` when its purge could not be started. */
export async function unmarkWorkspaceDeleted(db: Db, workspaceId: string): Promise<void> {
  await db.updateTable('workspaces').set({ deleted_at: null }).where('id', '=', workspaceId).execute();
}

/** Creates a workspace. */
export async function createWorkspace(db: Db, name: string): Promise<{ id: string; name: string }> {
  return db.insertInto('workspaces').values({ name }).returning(['id', 'name']).executeTakeFirstOrThrow();
}

/** The first workspace not deleted, used by `assay start` to find its default workspace again. */
export async function findFirstWorkspace(db: Db): Promise<{ id: string; name: string } | undefined> {
  return db
    .selectFrom('workspaces')
    .select(['id', 'name'])
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}
