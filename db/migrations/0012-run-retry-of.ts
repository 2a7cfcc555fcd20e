import { sql, type Kysely } from 'kysely';

/**
 * A run made by `retry-errors` names the run it retries (`retry_of`) and scores only the cases that ended `error`
 * there. A retry is part of the run it retries: deleting that run deletes its retries (runs go only with their set,
 * agent or workspace anyway), so the restriction can never silently widen to the whole set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('eval_runs')
    .addColumn('retry_of', 'uuid', (c) => c.references('eval_runs.id').onDelete('cascade'))
    .execute();
  // The foreign key's lookups when a run is deleted, and "the retries of this run".
  await db.schema
    .createIndex('eval_runs_retry_of_idx')
    .on('eval_runs')
    .column('retry_of')
    .where(sql.ref('retry_of'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('eval_runs_retry_of_idx').execute();
  await db.schema.alterTable('eval_runs').dropColumn('retry_of').execute();
}
