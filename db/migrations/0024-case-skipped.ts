import { sql, type Kysely } from 'kysely';

async function allowStatuses(db: Kysely<unknown>, statuses: readonly string[]): Promise<void> {
  await db.schema.alterTable('case_results').dropConstraint('case_results_status_check').execute();
  await db.schema
    .alterTable('case_results')
    .addCheckConstraint(
      'case_results_status_check',
      sql`status in (${sql.join(statuses.map((status) => sql.lit(status)))})`,
    )
    .execute();
}

/** A case result may be `skipped` (a conversation scenario, not scored until a user simulator exists), with why. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await allowStatuses(db, ['passed', 'failed', 'error', 'skipped']);
  await db.schema.alterTable('case_results').addColumn('skip_reason', 'text').execute();
}
