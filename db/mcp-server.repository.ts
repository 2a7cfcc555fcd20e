import { sql } from 'kysely';
import type { Db } from './database';
import { BY_NAME, keysetPage, type Page, type PageParams } from './keyset-page';
import type { McpAuthType, McpServer, McpServerConfig } from './tables/mcp.table';

export interface McpServerInput {
  catalogId: string | null;
  name: string;
  transport: string;
  config: McpServerConfig;
  secretNames: string[];
  healthCheckIntervalSeconds?: number;
  /** OAuth: the grant, a pre-registered client id and the scopes asked for (the client secret goes to the vault). */
  auth?: { type: McpAuthType; clientId: string | null; scopes: string | null };
}

/** The outcome of the last connection test, as stored on the server. */
export interface McpServerTestRecord {
  status: 'connected' | 'error';
  latency_ms?: number;
  message?: string;
  tested_at: string;
}

/** The credential id a server's secrets are stored under. */
export const mcpCredentialId = (name: string): string => `mcp-server:${name}`;

/** Inserts a server in `pending` (`authorization_required` when a person must authorize it first). */
export async function insertMcpServer(db: Db, workspaceId: string, input: McpServerInput): Promise<McpServer> {
  return db
    .insertInto('mcp_servers')
    .values({
      workspace_id: workspaceId,
      catalog_id: input.catalogId,
      name: input.name,
      transport: input.transport,
      config: JSON.stringify(input.config),
      status: input.auth?.type === 'oauth' ? 'authorization_required' : 'pending',
      credential_id: mcpCredentialId(input.name),
      secret_names: JSON.stringify(input.secretNames),
      health_check_interval_seconds: input.healthCheckIntervalSeconds,
      auth_type: input.auth?.type ?? null,
      oauth_client_id: input.auth?.clientId ?? null,
      oauth_scopes: input.auth?.scopes ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Inserts a server in `pending`, refused (`full`) when the workspace already holds `max` servers. The count and the
 * insert share a transaction locked on the workspace, so two writers cannot both pass it.
 */
export async function insertMcpServerWithin(
  db: Db,
  workspaceId: string,
  input: McpServerInput,
  max: number,
): Promise<McpServer | { full: number }> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
    const { count } = await trx
      .selectFrom('mcp_servers')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= max) return { full: Number(count) };
    return insertMcpServer(trx, workspaceId, input);
  });
}

/**
 * A workspace's server by id, else undefined (also for another workspace's server). `lock` holds its row to the end
 * of the transaction: `update` (a writer) fails at once (55P03) when anyone holds it, so no api connection waits on
 * a lock; `share` (a reader) waits for a writer, as long as the transaction's lock_timeout allows.
 */
export async function findMcpServer(
  db: Db,
  workspaceId: string,
  id: string,
  lock?: 'update' | 'share',
): Promise<McpServer | undefined> {
  return db
    .selectFrom('mcp_servers')
    .selectAll()
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .$if(lock === 'update', (query) => query.forUpdate().noWait())
    .$if(lock === 'share', (query) => query.forShare())
    .executeTakeFirst();
}

/** A workspace's servers by name. */
export async function listMcpServers(db: Db, workspaceId: string, page: PageParams): Promise<Page<McpServer>> {
  const query = db.selectFrom('mcp_servers').selectAll().where('workspace_id', '=', workspaceId);
  return keysetPage(query, BY_NAME, page);
}

/**
 * A server's status set afresh: no last error, no failed checks in a row, nothing for a recovery to restore, no
 * step-up scope waiting for an authorization.
 */
export const freshStatus = (status: string) => ({
  status,
  last_error: null,
  oauth_step_up_scope: null,
  health_failures: 0,
  health_restore_status: null,
  updated_at: sql<Date>`now()`,
});

/** Replaces config and secret names (and marks the change for the gateway); the server goes back to `pending` until
 * the next successful sync. */
export async function updateMcpServerConfig(
  db: Db,
  id: string,
  config: McpServerConfig,
  secretNames: string[],
): Promise<McpServer> {
  return db
    .updateTable('mcp_servers')
    .set({
      config: JSON.stringify(config),
      secret_names: JSON.stringify(secretNames),
      config_changed_at: sql<Date>`now()`,
      ...freshStatus('pending'),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a server; its tools and agent links cascade. */
export async function deleteMcpServer(db: Db, id: string): Promise<void> {
  await db.deleteFrom('mcp_servers').where('id', '=', id).execute();
}

/** Stores the last connection test; the status is left alone (a test alone does not connect a server). */
export async function recordMcpServerTest(db: Db, id: string, test: McpServerTestRecord): Promise<void> {
  await db
    .updateTable('mcp_servers')
    .set({ last_test: JSON.stringify(test), updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/** Marks a failed sync: status `error` with the (secret-free) message. */
export async function markMcpServerError(db: Db, id: string, message: string): Promise<void> {
  await db
    .updateTable('mcp_servers')
    // The sync owns this error now: a health check's success does not clear it.
    .set({ status: 'error', last_error: message, health_restore_status: null, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/** Sets how often the server's health is checked. */
export async function setHealthCheckInterval(db: Db, id: string, seconds: number): Promise<McpServer> {
  return db
    .updateTable('mcp_servers')
    .set({ health_check_interval_seconds: seconds, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
