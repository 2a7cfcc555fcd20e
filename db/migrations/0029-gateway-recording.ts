import { sql, type Kysely } from 'kysely';

/**
 * Gateway recording. An agent's `gateway_capture` ('metadata' keeps names, sizes, latency and outcome of each call;
 * 'full' keeps arguments and results too); conversations of source 'gateway', one per MCP session of the gateway
 * (unique per agent, so opening a session twice finds the same conversation), the token that opened it and whether
 * the recording stopped at a bound. Nothing existing is rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('agents')
    .addColumn('gateway_capture', 'text', (c) =>
      c
        .notNull()
        .defaultTo('metadata')
        .check(sql`gateway_capture in ('metadata', 'full')`),
    )
    .execute();
  await sql`ALTER TABLE conversations DROP CONSTRAINT conversations_source_check`.execute(db);
  await sql`ALTER TABLE conversations ADD CONSTRAINT conversations_source_check
    CHECK (source IN ('imported', 'live', 'sandbox', 'gateway'))`.execute(db);
  await db.schema
    .alterTable('conversations')
    .addColumn('mcp_session_id', 'text')
    .addColumn('token_id', 'uuid')
    .addColumn('truncated', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`CREATE UNIQUE INDEX conversations_mcp_session ON conversations (agent_id, mcp_session_id)
    WHERE mcp_session_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX conversations_agent_source ON conversations (agent_id, source, created_at DESC, id DESC)`.execute(
    db,
  );
}
