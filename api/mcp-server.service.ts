import type { z } from 'zod';
import { findVisibleCatalogEntry } from '../db/mcp-catalog.repository';
import {
  deleteMcpServer,
  insertMcpServerWithin,
  setHealthCheckInterval,
  updateMcpServerConfig,
} from '../db/mcp-server.repository';
import { isLockNotAvailable, isUniqueViolation } from '../db/pg-errors';
import type { Db } from '../db/database';
import type { McpServer } from '../db/tables/mcp.table';
import { LIMITS } from '../domain/limits';
import type { CredentialVault } from '../lib/vault/credential-vault';
import type { AppDeps } from './app-deps';
import { invalidField, limitExceeded } from './field-errors';
import { deleteHealthSchedule, ensureHealthSchedule } from './health-schedules';
import { changeInProgress, HttpError } from './http-error';
import { requireMcpServer } from './lookups';
import { markAuthorizationRequired } from '../db/mcp-oauth.repository';
import { deleteOauthSecrets, readOauthRecord, writeOauthRecord } from '../lib/mcp/oauth-vault';
import {
  requireClientSecretToMove,
  validateServerAuth,
  validateServerInput,
  type ServerInput,
  type serverAuthBody,
  type serverAuthChangeBody,
  type serverConfigBody,
} from './mcp-server-input';

/**
 * An MCP server's writes that reach past Postgres: its row, its secret in the credential vault and its health-check
 * Schedule in Temporal, each step undone when a later one fails, so a refused request leaves nothing behind.
 */

/** What a registration or a change gives, as validated by the route's schema. */
interface ServerFields {
  config?: z.infer<typeof serverConfigBody>;
  health_check_interval_seconds?: number;
  secret_value?: string;
  secrets?: Record<string, string>;
}

/** A change of a server; `auth` gives the pre-registered client secret again. */
interface ServerChange extends ServerFields {
  auth?: z.infer<typeof serverAuthChangeBody>;
}

/** A new server as the request names it. */
export interface ServerRegistration extends ServerFields {
  catalog_id?: string;
  name: string;
  transport: McpServer['transport'];
  auth?: z.infer<typeof serverAuthBody>;
}

async function storeSecrets(vault: CredentialVault, server: McpServer, secrets: Record<string, string> | undefined) {
  if (secrets)
    await vault.put({ workspaceId: server.workspace_id, credentialId: server.credential_id }, JSON.stringify(secrets));
}

async function removeRowAndSecret(deps: AppDeps, server: McpServer): Promise<void> {
  await deps.vault.delete({ workspaceId: server.workspace_id, credentialId: server.credential_id });
  // Only a server registered with OAuth has them (the auth type is fixed at registration).
  if (server.auth_type) await deleteOauthSecrets(deps.vault, server);
  await deleteMcpServer(deps.db, server.id);
}

/**
 * Registers a server: the row (at most `mcpServersPerWorkspace`, names unique), then its secret, then its Schedule.
 * The row goes first so a duplicate name can never overwrite another server's secret; each later failure undoes it.
 */
export async function registerMcpServer(
  deps: AppDeps,
  workspaceId: string,
  body: ServerRegistration,
): Promise<McpServer> {
  const entry = body.catalog_id ? await findVisibleCatalogEntry(deps.db, workspaceId, body.catalog_id) : undefined;
  if (body.catalog_id && !entry) throw invalidField('catalog_id', 'unknown catalog entry');
  const input = validateServerInput({
    entry,
    transport: body.transport,
    config: body.config,
    secret_value: body.secret_value,
    secrets: body.secrets,
  });
  validateServerAuth(body.transport, body.auth);
  const { auth } = body;
  const inserted = await insertMcpServerWithin(
    deps.db,
    workspaceId,
    {
      catalogId: entry?.id ?? null,
      name: body.name,
      transport: body.transport,
      healthCheckIntervalSeconds: body.health_check_interval_seconds,
      auth: auth && { type: auth.type, clientId: auth.client_id ?? null, scopes: auth.scopes ?? null },
      ...input,
    },
    LIMITS.mcpServersPerWorkspace,
  ).catch((error: unknown) => {
    throw isUniqueViolation(error)
      ? new HttpError(409, 'conflict', `an MCP server named ${body.name} already exists`, { field: 'name' })
      : error;
  });
  if ('full' in inserted)
    throw limitExceeded('(body)', 'mcpServersPerWorkspace', 'items', `the workspace has ${inserted.full} servers`);
  const server = inserted;
  const stored = async () => {
    await storeSecrets(deps.vault, server, input.secrets);
    if (auth?.client_secret !== undefined)
      await writeOauthRecord(deps.vault, server, { client_secret: auth.client_secret });
  };
  await stored().catch(async (error: unknown) => {
    await removeRowAndSecret(deps, server);
    throw error;
  });
  await ensureHealthSchedule(deps, server).catch(async (error: unknown) => {
    await removeRowAndSecret(deps, server);
    throw error;
  });
  return server;
}

// A new url, headers or secret: the server goes back to pending.
async function reconfigure(trx: Db, vault: CredentialVault, server: McpServer, change: ServerChange) {
  const entry = server.catalog_id
    ? await findVisibleCatalogEntry(trx, server.workspace_id, server.catalog_id)
    : undefined;
  const input = validateServerInput({
    entry,
    transport: server.transport,
    config: change.config,
    secret_value: change.secret_value,
    secrets: change.secrets,
    existing: { config: server.config, secretNames: server.secret_names },
  });
  const newSecret = change.auth?.client_secret;
  if (newSecret !== undefined && !server.oauth_client_id)
    throw invalidField('auth.client_secret', 'the server has no pre-registered OAuth client (auth.client_id)');
  const record = server.auth_type ? await readOauthRecord(vault, server) : {};
  if (record.client_secret !== undefined)
    requireClientSecretToMove(server.config, input.config, newSecret !== undefined);
  // The vault first: a reader that sees the new row finds the secret given with it, never the old one.
  await storeSecrets(vault, server, input.secrets);
  if (server.auth_type && input.config.url !== server.config.url)
    return forgetAuthorization(trx, vault, server, newSecret, input);
  // A secret given again is bound anew, where it is presented next (the cached discovery's authorization server).
  if (newSecret !== undefined)
    await writeOauthRecord(vault, server, { ...record, client: undefined, client_secret: newSecret });
  return updateMcpServerConfig(trx, server.id, input.config, input.secretNames);
}

// Tokens, a registered client and discovery belong to the old url's resource and authorization server: they go, and
// a person authorizes the new url. A pre-registered client stays bound to the authorization server it was first
// presented to, unless its secret is given again (then it is bound anew, where it is presented next).
async function forgetAuthorization(
  trx: Db,
  vault: CredentialVault,
  before: McpServer,
  newSecret: string | undefined,
  input: ServerInput,
): Promise<McpServer> {
  const { client_secret, client } = await readOauthRecord(vault, before);
  const kept = newSecret === undefined && before.oauth_client_id ? { client_secret, client } : {};
  await writeOauthRecord(vault, before, { ...kept, ...(newSecret === undefined ? {} : { client_secret: newSecret }) });
  const server = await updateMcpServerConfig(trx, before.id, input.config, input.secretNames);
  if (server.auth_type !== 'oauth') return server;
  const message = 'authorization required: the url changed; authorize again (POST …/authorize)';
  await markAuthorizationRequired(trx, server.id, message);
  return { ...server, status: 'authorization_required', last_error: message };
}

/** Changes a server's url, headers or secret (back to pending), or its health-check interval (and its Schedule). */
export async function changeMcpServer(
  deps: AppDeps,
  workspaceId: string,
  serverId: string,
  body: ServerChange,
): Promise<McpServer> {
  // Row-locked to the end: two updates of one server never interleave, so a secret always ends up stored with
  // the url and headers of the request that gave it (never with another request's new host).
  return deps.db.transaction().execute(async (trx) => {
    let server = await requireMcpServer(trx, workspaceId, serverId, 'update').catch((error: unknown) => {
      throw isLockNotAvailable(error) ? changeInProgress('mcp server') : error;
    });
    const { health_check_interval_seconds: interval, ...change } = body;
    if (interval === undefined || Object.keys(change).length > 0)
      server = await reconfigure(trx, deps.vault, server, change);
    if (interval !== undefined) {
      // Last, after every check: a refused schedule change rolls the whole update back.
      server = await setHealthCheckInterval(trx, server.id, interval);
      await ensureHealthSchedule(deps, server);
    }
    return server;
  });
}

/** Deletes a server: its Schedule first (Temporal unreachable: nothing changed), then its secret and row. */
export async function removeMcpServer(deps: AppDeps, server: McpServer): Promise<void> {
  await deleteHealthSchedule(deps, server.id);
  await removeRowAndSecret(deps, server);
}
