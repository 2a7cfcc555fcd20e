import type { Kysely } from 'kysely';

/**
 * A deleted workspace is marked at once (`deleted_at`), so no token can act in it any more; its secrets and rows are
 * then removed by a workflow in bounded pages. "My workspaces" looks memberships up by user, hence the index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workspaces').addColumn('deleted_at', 'timestamptz').execute();
  await db.schema.createIndex('memberships_user_idx').on('memberships').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('memberships_user_idx').execute();
  await db.schema.alterTable('workspaces').dropColumn('deleted_at').execute();
}
