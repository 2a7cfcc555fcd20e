import { sql, type Kysely } from 'kysely';

/** Fair share of the workers: leases on a workspace's case slots, and each case's count of judge calls. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per case in flight; a row past `expires_at` belongs to a holder that stopped renewing (a dead run).
  await db.schema
    .createTable('case_slots')
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('eval_runs.id').onDelete('cascade'))
    .addColumn('case_id', 'uuid', (c) => c.notNull())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('acquired_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_slots_pkey', ['run_id', 'case_id'])
    .execute();
  await db.schema
    .createIndex('case_slots_workspace_idx')
    .on('case_slots')
    .columns(['workspace_id', 'expires_at'])
    .execute();

  // Counted in Postgres, not in memory: the bound holds across activity attempts and workers.
  await db.schema
    .createTable('case_judge_calls')
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('eval_runs.id').onDelete('cascade'))
    .addColumn('case_id', 'uuid', (c) => c.notNull())
    .addColumn('calls', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_judge_calls_pkey', ['run_id', 'case_id'])
    .execute();
}
