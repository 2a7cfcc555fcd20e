import { z } from 'zod';
import { findVisibleCatalogEntry } from '../../db/mcp-catalog.repository';
import {
  deleteMcpServer,
  insertMcpServerWithin,
  listMcpServers,
  setHealthCheckInterval,
  updateMcpServerConfig,
} from '../../db/mcp-server.repository';
import { isLockNotAvailable, isUniqueViolation } from '../../db/pg-errors';
import type { Db } from '../../db/database';
import type { McpServer } from '../../db/tables/mcp.table';
import { LIMITS } from '../../domain/limits';
import { MCP_TRANSPORTS, SLUG } from '../../domain/mcp/mcp-catalog-entry';
import type { CredentialVault } from '../../lib/vault/credential-vault';
import type { AppDeps } from '../app-deps';
import { invalidField, limitExceeded } from '../field-errors';
import { deleteHealthSchedule, ensureHealthSchedule } from '../health-schedules';
import { changeInProgress, HttpError } from '../http-error';
import { requireMcpServer } from '../lookups';
import { serverConfigBody, serverSecretsBody, validateServerInput } from '../mcp-server-input';
import { route, type RouteSpec } from '../route';
import { linkedPage, pageQuery } from '../paging';
import { serverJson, toMcpServerJson } from '../json/mcp-server.json';

const healthInterval = z
  .number()
  .int()
  .min(LIMITS.healthCheckIntervalMinSeconds)
  .max(LIMITS.healthCheckIntervalMaxSeconds)
  .optional()
  .describe('seconds between scheduled health checks (default 300)');

const createServerBody = z.object({
  catalog_id: z.string().uuid().optional(),
  name: z.string().regex(SLUG, 'must be a slug (lower-case letters, digits, inner hyphens; at most 64)'),
  transport: z.enum(MCP_TRANSPORTS),
  config: serverConfigBody.optional(),
  health_check_interval_seconds: healthInterval,
  ...serverSecretsBody,
});

const updateServerBody = z.object({
  config: serverConfigBody.optional(),
  health_check_interval_seconds: healthInterval,
  ...serverSecretsBody,
});

const createdJson = serverJson.pick({ id: true, name: true, status: true, credential_id: true, transport: true });

async function removeServer(deps: AppDeps, server: McpServer): Promise<void> {
  await deps.vault.delete({ workspaceId: server.workspace_id, credentialId: server.credential_id });
  await deleteMcpServer(deps.db, server.id);
}

async function storeSecrets(
  vault: CredentialVault,
  server: McpServer,
  secrets: Record<string, string> | undefined,
): Promise<void> {
  if (secrets)
    await vault.put({ workspaceId: server.workspace_id, credentialId: server.credential_id }, JSON.stringify(secrets));
}

// A new url, headers or secret: the server goes back to pending.
async function reconfigure(
  trx: Db,
  vault: CredentialVault,
  server: McpServer,
  change: Omit<z.infer<typeof updateServerBody>, 'health_check_interval_seconds'>,
): Promise<McpServer> {
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
  // The vault first: a reader that sees the new row finds the secret given with it, never the old one.
  await storeSecrets(vault, server, input.secrets);
  return updateMcpServerConfig(trx, server.id, input.config, input.secretNames);
}

/** MCP servers: register (secret into the vault), list, get, update or rotate, delete. */
export const mcpServerRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v1/mcp-servers',
    summary:
      'Register an MCP server (its secret goes to the credential vault, its health checks are scheduled); at most ' +
      `mcpServersPerWorkspace (${LIMITS.mcpServersPerWorkspace}) per workspace, one more is 422`,
    errors: [409, 503],
    tag: 'mcp',
    permission: 'mcp:manage',
    body: createServerBody,
    status: 201,
    response: createdJson,
    handler: async ({ body, auth, deps }) => {
      const entry = body.catalog_id
        ? await findVisibleCatalogEntry(deps.db, auth.workspaceId, body.catalog_id)
        : undefined;
      if (body.catalog_id && !entry) throw invalidField('catalog_id', 'unknown catalog entry');
      const input = validateServerInput({
        entry,
        transport: body.transport,
        config: body.config,
        secret_value: body.secret_value,
        secrets: body.secrets,
      });
      const inserted = await insertMcpServerWithin(
        deps.db,
        auth.workspaceId,
        {
          catalogId: entry?.id ?? null,
          name: body.name,
          transport: body.transport,
          healthCheckIntervalSeconds: body.health_check_interval_seconds,
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
      // Inserted first so a duplicate name can never overwrite another server's secret; undone if the vault fails.
      await storeSecrets(deps.vault, server, input.secrets).catch(async (error: unknown) => {
        await deleteMcpServer(deps.db, server.id);
        throw error;
      });
      await ensureHealthSchedule(deps, server).catch(async (error: unknown) => {
        await removeServer(deps, server);
        throw error;
      });
      const { id, name, status, credential_id, transport } = toMcpServerJson(server);
      return { id, name, status, credential_id, transport };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/mcp-servers',
    summary: 'List MCP servers',
    tag: 'mcp',
    permission: 'mcp:view',
    query: pageQuery,
    response: z.array(serverJson),
    handler: async (ctx) =>
      linkedPage(ctx, (page) => listMcpServers(ctx.deps.db, ctx.auth.workspaceId, page), toMcpServerJson),
  }),
  route({
    method: 'get',
    path: '/api/v1/mcp-servers/:id',
    summary: 'Get an MCP server',
    tag: 'mcp',
    permission: 'mcp:view',
    response: serverJson,
    handler: async ({ params, auth, deps }) =>
      toMcpServerJson(await requireMcpServer(deps.db, auth.workspaceId, params.id)),
  }),
  route({
    method: 'patch',
    path: '/api/v1/mcp-servers/:id',
    summary: 'Change url or headers, or rotate the secret (back to pending); or the health-check interval',
    tag: 'mcp',
    permission: 'mcp:manage',
    body: updateServerBody,
    errors: [409, 503],
    response: serverJson,
    handler: async ({ body, params, auth, deps }) =>
      // Row-locked to the end: two updates of one server never interleave, so a secret always ends up stored with
      // the url and headers of the request that gave it (never with another request's new host).
      deps.db.transaction().execute(async (trx) => {
        let server = await requireMcpServer(trx, auth.workspaceId, params.id, 'update').catch((error: unknown) => {
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
        return toMcpServerJson(server);
      }),
  }),
  route({
    method: 'delete',
    path: '/api/v1/mcp-servers/:id',
    summary: 'Delete an MCP server, its health-check schedule, secret, tools and agent links',
    tag: 'mcp',
    permission: 'mcp:manage',
    status: 204,
    errors: [503],
    handler: async ({ params, auth, deps }) => {
      const server = await requireMcpServer(deps.db, auth.workspaceId, params.id);
      await deleteHealthSchedule(deps, server.id);
      await removeServer(deps, server);
      return undefined;
    },
  }),
];
