import { sql, type Kysely } from 'kysely';

/**
 * Pinned tool definitions. A tool keeps the title, annotations and icons it was listed with, its approval `status`, the
 * definition hash and definition it was last approved at (the diff's "old" side); a link may opt into auto-approval; an
 * eval run may offer one quarantined tool (approve with evaluation). Existing tools stay approved at their current
 * definition: it is kept as their approved one, marked as pinned before definitions were hashed with title and
 * annotations (the next sync compares only description and schemas for them, so nothing a user has becomes hidden).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mcp_tools')
    .addColumn('title', 'text')
    .addColumn('annotations', 'jsonb')
    .addColumn('icons', 'jsonb')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('approved')
        .check(sql`status in ('approved', 'quarantined')`),
    )
    .addColumn('approved_hash', 'text')
    .addColumn('approved_definition', 'jsonb')
    .execute();
  await sql`UPDATE mcp_tools SET approved_hash = 'pre-0028',
    approved_definition = jsonb_build_object('name', name, 'description', description, 'inputSchema', input_schema)
      || CASE WHEN output_schema IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('outputSchema', output_schema) END`.execute(
    db,
  );
  await db.schema
    .alterTable('agent_mcp_servers')
    .addColumn('auto_approve', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('eval_runs').addColumn('candidate_tool_id', 'uuid').execute();
}
