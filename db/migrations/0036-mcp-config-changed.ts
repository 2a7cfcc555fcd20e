import { sql, type Kysely } from 'kysely';

/**
 * When a server's config or secret was last replaced (not its status, test or health): the gateway closes the upstream
 * sessions it opened before, so nothing more is sent with the old secret. Issue 31.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mcp_servers')
    .addColumn('config_changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mcp_servers').dropColumn('config_changed_at').execute();
}
