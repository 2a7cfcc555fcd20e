import type { Kysely } from 'kysely';

/** A live eval run pins the agent version, model and provider it runs on at preflight (`{ version, model, provider }`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('eval_runs').addColumn('agent', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('eval_runs').dropColumn('agent').execute();
}
