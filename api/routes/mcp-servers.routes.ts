import { z } from 'zod';
import { findVisibleCatalogEntry } from '../../db/mcp-catalog.repository';
import {
  deleteMcpServer,
  insertMcpServer,
  listMcpServers,
  updateMcpServerConfig,
} from '../../db/mcp-server.repository';
import { isLockNotAvailable, isUniqueViolation } from '../../db/pg-errors';
import type { McpServer } from '../../db/tables/mcp.table';
import { MCP_TRANSPORTS, SLUG } from '../../domain/mcp-catalog-entry';
import type { CredentialVault } from '../../lib/vault/credential-vault';
import { invalidField } from '../field-errors';
import { changeInProgress, HttpError } from '../http-error';
import { requireMcpServer } from '../lookups';
import { serverConfigBody, serverSecretsBody, validateServerInput } from '../mcp-server-input';
import { route, type RouteSpec } from '../route';
import { linkedPage, pageQuery } from '../paging';

const createServerBody = z.object({
  catalog_id: z.string().uuid().optional(),
  name: z.string().regex(SLUG, 'must be a slug (lower-case letters, digits, inner hyphens; at most 64)'),
  transport: z.enum(MCP_TRANSPORTS),
  config: serverConfigBody.optional(),
  ...serverSecretsBody,
});
const updateServerBody = z.object({ config: serverConfigBody.optional(), ...serverSecretsBody });

const serverJson = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  credential_id: z.string(),
  transport: z.string(),
  catalog_id: z.string().nullable(),
  config: z.object({ url: z.string().optional(), headers: z.record(z.string(), z.string()).optional() }),
  secret_names: z.array(z.string()),
  last_test: z.record(z.string(), z.unknown()).nullable(),
  last_error: z.string().nullable(),
  synced_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
const createdJson = serverJson.pick({ id: true, name: true, status: true, credential_id: true, transport: true });

/** The API shape of a server: config holds `$SECRET` references only; secret values never leave the vault. */
export function toMcpServerJson(row: McpServer): z.infer<typeof serverJson> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    credential_id: row.credential_id,
    transport: row.transport,
    catalog_id: row.catalog_id,
    config: row.config,
    secret_names: row.secret_names,
    last_test: row.last_test,
    last_error: row.last_error,
    synced_at: row.synced_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function storeSecrets(
  vault: CredentialVault,
  server: McpServer,
  secrets: Record<string, string> | undefined,
): Promise<void> {
  if (secrets)
    await vault.put({ workspaceId: server.workspace_id, credentialId: server.credential_id }, JSON.stringify(secrets));
}

/** MCP servers: register (secret into the vault), list, get, update or rotate, delete. */
export const mcpServerRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v1/mcp-servers',
    summary: 'Register an MCP server (its secret goes to the credential vault)',
    errors: [409],
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
      const server = await insertMcpServer(deps.db, auth.workspaceId, {
        catalogId: entry?.id ?? null,
        name: body.name,
        transport: body.transport,
        ...input,
      }).catch((error: unknown) => {
        throw isUniqueViolation(error)
          ? new HttpError(409, 'conflict', `an MCP server named ${body.name} already exists`, { field: 'name' })
          : error;
      });
      // Inserted first so a duplicate name can never overwrite another server's secret; undone if the vault fails.
      await storeSecrets(deps.vault, server, input.secrets).catch(async (error: unknown) => {
        await deleteMcpServer(deps.db, server.id);
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
    summary: 'Change url or headers, or rotate the secret (back to pending)',
    tag: 'mcp',
    permission: 'mcp:manage',
    body: updateServerBody,
    errors: [409],
    response: serverJson,
    handler: async ({ body, params, auth, deps }) =>
      // Row-locked to the end: two updates of one server never interleave, so a secret always ends up stored with
      // the url and headers of the request that gave it (never with another request's new host).
      deps.db.transaction().execute(async (trx) => {
        const server = await requireMcpServer(trx, auth.workspaceId, params.id, 'update').catch((error: unknown) => {
          throw isLockNotAvailable(error) ? changeInProgress('mcp server') : error;
        });
        const entry = server.catalog_id
          ? await findVisibleCatalogEntry(trx, auth.workspaceId, server.catalog_id)
          : undefined;
        const input = validateServerInput({
          entry,
          transport: server.transport,
          config: body.config,
          secret_value: body.secret_value,
          secrets: body.secrets,
          existing: { config: server.config, secretNames: server.secret_names },
        });
        // The vault first: a reader that sees the new row finds the secret given with it, never the old one.
        await storeSecrets(deps.vault, server, input.secrets);
        return toMcpServerJson(await updateMcpServerConfig(trx, server.id, input.config, input.secretNames));
      }),
  }),
  route({
    method: 'delete',
    path: '/api/v1/mcp-servers/:id',
    summary: 'Delete an MCP server, its secret, tools and agent links',
    tag: 'mcp',
    permission: 'mcp:manage',
    status: 204,
    handler: async ({ params, auth, deps }) => {
      const server = await requireMcpServer(deps.db, auth.workspaceId, params.id);
      await deps.vault.delete({ workspaceId: server.workspace_id, credentialId: server.credential_id });
      await deleteMcpServer(deps.db, server.id);
      return undefined;
    },
  }),
];
