import { sql, type Kysely } from 'kysely';

/** The instance-level operator permission: who may use the Temporal UI's remote codec (one key for every workspace). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('operator', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // An instance started before this migration keeps an operator: the owner `assay start` created on its first start.
  await sql`UPDATE users SET operator = true WHERE email = 'owner@assay.local'`.execute(db);
}
