import { sql, type Kysely } from 'kysely';

/**
 * Tool mocks and cassettes. A case's and a set's `tool_mocks`, the set's `mock_policy` and `simulate_tool_responses`;
 * an agent run's mocks as it uses them, and the report its conversation keeps; a link's `record_cassette` opt-in and a
 * set's cassette (recorded tool responses, replayed by tool, server and arguments). Nothing existing is rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('eval_cases').addColumn('tool_mocks', 'jsonb').execute();
  await db.schema
    .alterTable('eval_sets')
    .addColumn('tool_mocks', 'jsonb')
    .addColumn('mock_policy', 'text', (c) =>
      c
        .notNull()
        .defaultTo('replay')
        .check(sql`mock_policy in ('error', 'replay', 'simulate')`),
    )
    .addColumn('simulate_tool_responses', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('agent_runs').addColumn('tool_mocks', 'jsonb').execute();
  await db.schema.alterTable('mcp_tools').addColumn('output_schema', 'jsonb').execute();
  await db.schema.alterTable('conversations').addColumn('tool_mocks', 'jsonb').execute();
  await db.schema
    .alterTable('agent_mcp_servers')
    .addColumn('record_cassette', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createTable('cassette_entries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('eval_set_id', 'uuid', (c) => c.notNull().references('eval_sets.id').onDelete('cascade'))
    .addColumn('tool_name', 'text', (c) => c.notNull())
    .addColumn('server', 'text', (c) => c.notNull())
    .addColumn('tool_args', 'jsonb', (c) => c.notNull())
    .addColumn('response', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One entry per call: a call recorded again replaces its response (jsonb text is canonical, so equal args hash equal).
  await sql`CREATE UNIQUE INDEX cassette_entries_call ON cassette_entries
    (eval_set_id, tool_name, server, md5(tool_args::text))`.execute(db);
}
