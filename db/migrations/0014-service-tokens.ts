import { sql, type Kysely } from 'kysely';

/**
 * A workspace's service tokens (CI): bound to one workspace with a role of their own, no user. Only the SHA-256
 * hash of a token is stored; `created_by` is the user who made it (null when another service token did, or when
 * that user is gone).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  // A workspace's list pages by (created_at, id); the same index counts its active tokens against the limit.
  await db.schema
    .createIndex('service_tokens_keyset_idx')
    .on('service_tokens')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();
  // "A user's personal tokens" pages the same way (the list and the active-token count of POST /api/tokens).
  await db.schema
    .createIndex('api_tokens_keyset_idx')
    .on('api_tokens')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_tokens_keyset_idx').execute();
  await db.schema.dropTable('service_tokens').execute();
}
