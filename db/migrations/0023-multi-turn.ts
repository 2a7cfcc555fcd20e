import type { Kysely } from 'kysely';

/**
 * Cases and conversations of many turns. A case's `turns` (null: the one turn its single-turn columns describe, as
 * every case before this had), its session's initial `state`, its expected `final_state` and an ADK
 * `conversation_scenario` kept whole; a conversation's `turns` (null: one turn); a case result's per-turn outcomes
 * (null: a one-turn case scored against a one-turn conversation). Nothing existing is rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('eval_cases')
    .addColumn('turns', 'jsonb')
    .addColumn('state', 'jsonb')
    .addColumn('final_state', 'jsonb')
    .addColumn('conversation_scenario', 'jsonb')
    .execute();
  await db.schema.alterTable('conversations').addColumn('turns', 'jsonb').execute();
  await db.schema.alterTable('case_results').addColumn('turns', 'jsonb').execute();
}
