import { sql, type Kysely } from 'kysely';

/** Scheduled MCP health checks: each server's interval and failure streak, and its last checks. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mcp_servers')
    .addColumn('health_check_interval_seconds', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(300)
        .check(sql`health_check_interval_seconds between 30 and 86400`),
    )
    .addColumn('health_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('health_restore_status', 'text')
    .execute();
  await db.schema
    .createTable('mcp_health_checks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('server_id', 'uuid', (c) => c.notNull().references('mcp_servers.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('connected', 'error')`))
    .addColumn('latency_ms', 'integer')
    .addColumn('message', 'text')
    .addColumn('checked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('mcp_health_checks_server_idx')
    .on('mcp_health_checks')
    .columns(['server_id', 'checked_at desc', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mcp_health_checks').execute();
  await db.schema
    .alterTable('mcp_servers')
    .dropColumn('health_check_interval_seconds')
    .dropColumn('health_failures')
    .dropColumn('health_restore_status')
    .execute();
}
