import { sql, type Kysely } from 'kysely';

/**
 * The gateway's per-link policy: `tools` (the allowlist, `["*"]` for every tool), `tool_prefix` (what goes before each
 * exposed tool name; null: `<server name>__`), and `tool_overrides` (per tool: `timeout_ms`, `read_only`). Existing
 * links expose every tool under the default prefix, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('agent_mcp_servers')
    .addColumn('tools', 'jsonb', (c) => c.notNull().defaultTo(sql`'["*"]'::jsonb`))
    .addColumn('tool_prefix', 'text')
    .addColumn('tool_overrides', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
}
