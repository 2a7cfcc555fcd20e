import { z } from 'zod';
import { listMcpServers } from '../../db/mcp-server.repository';
import { LIMITS } from '../../domain/limits';
import { MCP_TRANSPORTS, SLUG } from '../../domain/mcp/mcp-catalog-entry';
import { changeMcpServer, registerMcpServer, removeMcpServer } from '../mcp-server.service';
import { requireMcpServer } from '../lookups';
import { serverAuthBody, serverAuthChangeBody, serverConfigBody, serverSecretsBody } from '../mcp-server-input';
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
  auth: serverAuthBody.optional(),
  ...serverSecretsBody,
});

const updateServerBody = z.object({
  config: serverConfigBody.optional(),
  health_check_interval_seconds: healthInterval,
  auth: serverAuthChangeBody.optional(),
  ...serverSecretsBody,
});

const createdJson = serverJson.pick({ id: true, name: true, status: true, credential_id: true, transport: true });

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
      const server = await registerMcpServer(deps, auth.workspaceId, body);
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
      toMcpServerJson(await changeMcpServer(deps, auth.workspaceId, params.id, body)),
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
      await removeMcpServer(deps, await requireMcpServer(deps.db, auth.workspaceId, params.id));
      return undefined;
    },
  }),
];
