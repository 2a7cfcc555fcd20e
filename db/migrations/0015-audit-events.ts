import { sql, type Kysely } from 'kysely';

/**
 * One row per state-changing request: who did what to which resource, and how it ended. No foreign keys on purpose:
 * an entry outlives the workspace, the user and the token it names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('workspace_id', 'uuid', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'uuid', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text')
    .addColumn('resource_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('success', 'denied', 'failed')`))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .execute();
  // A workspace's trail pages newest first by (at, id); each filter has its own prefix, so a filtered page is an
  // index range too. The purge reads by `at` alone.
  const indexes: Record<string, string[]> = {
    audit_events_workspace_idx: ['workspace_id', 'at', 'id'],
    audit_events_actor_idx: ['workspace_id', 'actor_id', 'at', 'id'],
    audit_events_action_idx: ['workspace_id', 'action', 'at', 'id'],
    audit_events_resource_idx: ['workspace_id', 'resource_type', 'resource_id', 'at', 'id'],
    audit_events_at_idx: ['at'],
  };
  for (const [name, columns] of Object.entries(indexes)) {
    await db.schema.createIndex(name).on('audit_events').columns(columns).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
}
