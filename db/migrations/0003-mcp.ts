import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

const id = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder => c.primaryKey().defaultTo(sql`gen_random_uuid()`);
const now = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder => c.notNull().defaultTo(sql`now()`);

/** MCP catalog, servers, tool descriptors, agent links, flows and flow runs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mcp_catalog_entries')
    .addColumn('id', 'uuid', id)
    .addColumn('workspace_id', 'uuid', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('transport', 'text', (c) => c.notNull().check(sql`transport in ('http', 'stdio_curated')`))
    .addColumn('config_schema', 'jsonb', (c) => c.notNull())
    .addColumn('required_secrets', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('command', 'jsonb')
    .addColumn('env', 'jsonb')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    // Commands run on our machines, so only operator files (never a workspace) may hold stdio entries.
    .addCheckConstraint(
      'mcp_catalog_stdio_global',
      sql`transport <> 'stdio_curated' or (workspace_id is null and command is not null)`,
    )
    .execute();
  await sql`CREATE UNIQUE INDEX mcp_catalog_global_name_key ON mcp_catalog_entries (name) WHERE workspace_id IS NULL`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX mcp_catalog_workspace_name_key ON mcp_catalog_entries (workspace_id, name) WHERE workspace_id IS NOT NULL`.execute(
    db,
  );

  await db.schema
    .createTable('mcp_servers')
    .addColumn('id', 'uuid', id)
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('catalog_id', 'uuid', (c) => c.references('mcp_catalog_entries.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('config', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'connected', 'error')`))
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('secret_names', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('last_test', 'jsonb')
    .addColumn('last_error', 'text')
    .addColumn('synced_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    .addUniqueConstraint('mcp_servers_workspace_name_key', ['workspace_id', 'name'])
    .execute();

  await db.schema
    .createTable('mcp_tools')
    .addColumn('id', 'uuid', id)
    .addColumn('server_id', 'uuid', (c) => c.notNull().references('mcp_servers.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parameters', 'jsonb', (c) => c.notNull())
    .addColumn('input_schema', 'jsonb', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    .addUniqueConstraint('mcp_tools_server_name_key', ['server_id', 'name'])
    .execute();

  await db.schema
    .createTable('agent_mcp_servers')
    .addColumn('agent_id', 'uuid', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('mcp_server_id', 'uuid', (c) => c.notNull().references('mcp_servers.id').onDelete('cascade'))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('sandbox_real_calls', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    .addPrimaryKeyConstraint('agent_mcp_servers_pk', ['agent_id', 'mcp_server_id'])
    .execute();
  await db.schema.createIndex('agent_mcp_servers_server_idx').on('agent_mcp_servers').column('mcp_server_id').execute();

  await db.schema
    .createTable('flows')
    .addColumn('id', 'uuid', id)
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('nodes', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    .addUniqueConstraint('flows_workspace_name_key', ['workspace_id', 'name'])
    .execute();

  await db.schema
    .createTable('flow_runs')
    .addColumn('id', 'uuid', id)
    .addColumn('flow_id', 'uuid', (c) => c.notNull().references('flows.id').onDelete('cascade'))
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'running', 'completed', 'failed')`))
    .addColumn('variables', 'jsonb', (c) => c.notNull())
    .addColumn('node_results', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('flow_runs_flow_idx').on('flow_runs').columns(['flow_id', 'created_at']).execute();
}
