import { sql, type Kysely } from 'kysely';

// Each table's statuses before and after: `cancelled` is the end of a run stopped from outside (Temporal UI, CLI).
const STATUSES = {
  eval_runs: ['queued', 'running', 'completed', 'failed'],
  flow_runs: ['queued', 'running', 'completed', 'failed'],
  agent_runs: ['running', 'completed', 'failed'],
} as const;
type RunTable = keyof typeof STATUSES;

async function allowStatuses(db: Kysely<unknown>, table: RunTable, statuses: readonly string[]): Promise<void> {
  const check = `${table}_status_check`;
  await db.schema.alterTable(table).dropConstraint(check).execute();
  await db.schema
    .alterTable(table)
    .addCheckConstraint(check, sql`status in (${sql.join(statuses.map((status) => sql.lit(status)))})`)
    .execute();
}

/** Runs may end `cancelled`; the unfinished ones are indexed for the worker's sweep that settles closed workflows. */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, statuses] of Object.entries(STATUSES) as Array<[RunTable, readonly string[]]>) {
    await allowStatuses(db, table, [...statuses, 'cancelled']);
    await db.schema
      .createIndex(`${table}_unfinished_idx`)
      .on(table)
      .column('id')
      .where(sql.ref('status'), 'in', ['queued', 'running'])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, statuses] of Object.entries(STATUSES) as Array<[RunTable, readonly string[]]>) {
    await db.schema.dropIndex(`${table}_unfinished_idx`).execute();
    await sql`update ${sql.table(table)} set status = 'failed' where status = 'cancelled'`.execute(db);
    await allowStatuses(db, table, statuses);
  }
}
