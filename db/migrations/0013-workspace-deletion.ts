import type { Kysely } from 'kysely';

/** A deleted workspace is unusable at once (`deleted_at` set); its rows are removed afterwards, in pages. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workspaces').addColumn('deleted_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('deleted_at').execute();
}
