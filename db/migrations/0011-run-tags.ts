import { sql, type Kysely } from 'kysely';

/** Runs carry tags set at trigger time (a git SHA, `main`): listed, filtered by, and named as a compare baseline. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('eval_runs')
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
  // Serves `tags @> array[…]`: the runs of a set carrying a tag, and the newest one as a baseline.
  await db.schema.createIndex('eval_runs_tags_idx').on('eval_runs').using('gin').column('tags').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('eval_runs_tags_idx').execute();
  await db.schema.alterTable('eval_runs').dropColumn('tags').execute();
}
