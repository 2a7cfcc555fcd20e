import { sql, type Kysely } from 'kysely';

/**
 * OAuth for remote MCP servers: a server's auth type, pre-registered client id and scopes (nothing secret: tokens,
 * verifiers, codes and client secrets live in the credential vault), the status `authorization_required`, and the
 * pending authorizations a callback's `state` names (only its hash is kept; single use; bound to server, workspace
 * and person; it expires).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mcp_servers').dropConstraint('mcp_servers_status_check').execute();
  await db.schema
    .alterTable('mcp_servers')
    .addCheckConstraint(
      'mcp_servers_status_check',
      sql`status in ('pending', 'connected', 'error', 'authorization_required')`,
    )
    .execute();
  await db.schema
    .alterTable('mcp_servers')
    .addColumn('auth_type', 'text', (c) => c.check(sql`auth_type in ('oauth', 'oauth_client_credentials')`))
    .addColumn('oauth_client_id', 'text')
    .addColumn('oauth_scopes', 'text')
    .execute();
  await db.schema
    .createTable('mcp_oauth_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('server_id', 'uuid', (c) => c.notNull().references('mcp_servers.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('mcp_oauth_states_server_idx').on('mcp_oauth_states').column('server_id').execute();
}
