import { sql, type Kysely } from 'kysely';

/**
 * An agent run's turns (a live eval case of many turns runs turn by turn): each turn's user message and, once
 * started, where its calls begin and the reply it got. Runs before this ran one turn and keep `[]`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('agent_runs')
    .addColumn('turns', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}
