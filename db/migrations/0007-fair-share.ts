import type { Kysely } from 'kysely';

/** Fair share of the workers: leases on a workspace's case slots, and each case's count of judge calls. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A workspace's slots are numbered 0 … cap-1 and the key makes each number one row: two cases can never hold the
  // same slot, so the cap is exact without a lock. A row past `expires_at` belongs to a holder that stopped renewing
  // (a dead run): the next acquirer takes it over.
  await db.schema
    .createTable('case_slots')
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('eval_runs.id').onDelete('cascade'))
    .addColumn('case_id', 'uuid', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_slots_pkey', ['workspace_id', 'slot'])
    .addUniqueConstraint('case_slots_holder_key', ['run_id', 'case_id'])
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
