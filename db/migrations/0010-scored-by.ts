import type { Kysely } from 'kysely';

/** Each case result names the worker that scored it (its Temporal identity): scale-out can be seen, and checked. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('case_results').addColumn('scored_by', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('case_results').dropColumn('scored_by').execute();
}
