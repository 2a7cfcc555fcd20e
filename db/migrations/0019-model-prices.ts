import { sql, type Kysely } from 'kysely';

/** Per-workspace model prices (overriding the built-in table) and the cost of each case result. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('model_prices')
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('input_per_mtok', 'numeric', (c) => c.notNull().check(sql`input_per_mtok >= 0`))
    .addColumn('output_per_mtok', 'numeric', (c) => c.notNull().check(sql`output_per_mtok >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('model_prices_pkey', ['workspace_id', 'model'])
    .execute();
  await db.schema.alterTable('case_results').addColumn('cost', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('case_results').dropColumn('cost').execute();
  await db.schema.dropTable('model_prices').execute();
}
