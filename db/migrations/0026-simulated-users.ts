import type { Kysely } from 'kysely';

/**
 * Simulated users: an eval set's simulator settings (null: the defaults), and on a conversation a simulated user
 * played, what played it, on an agent run the simulated user's progress, and on a case result the simulator calls
 * its conversations made (null otherwise).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('eval_sets').addColumn('simulator', 'jsonb').execute();
  await db.schema.alterTable('conversations').addColumn('simulation', 'jsonb').execute();
  await db.schema.alterTable('agent_runs').addColumn('simulation', 'jsonb').execute();
  await db.schema.alterTable('case_results').addColumn('simulator_usage', 'jsonb').execute();
}
