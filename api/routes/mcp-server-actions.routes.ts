import { z } from 'zod';
import { pageServerTools } from '../../db/mcp-tool.repository';
import { ensureHealthSchedule } from '../health-schedules';
import { requireMcpServer } from '../lookups';
import { route, type RouteContext, type RouteSpec } from '../route';
import { linkedPage, pageQuery } from '../paging';
import { runMcpAction, type McpActionResults } from '../workflow-starts';
import { toolJson, toToolJson } from '../json/mcp-tool.json';

const testJson = z.union([
  z.object({ status: z.literal('connected'), latency_ms: z.number().int() }),
  z.object({ status: z.literal('error'), message: z.string() }),
]);

const syncJson = z.object({
  status: z.literal('connected'),
  tools_count: z.number().int(),
  synced_at: z.string(),
  changes: z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) }),
});

// The api only waits; the worker dials the server. A connected server has its health checks scheduled (servers
// registered before the schedules existed get theirs here).
function runOnWorker(action: keyof McpActionResults) {
  return async ({ params, auth, deps }: RouteContext<unknown>): Promise<unknown> => {
    const server = await requireMcpServer(deps.db, auth.workspaceId, params.id);
    const result = await runMcpAction(deps, action, { workspaceId: auth.workspaceId, serverId: server.id });
    if (action === 'sync') await ensureHealthSchedule(deps, server);
    return result;
  };
}

/** MCP server actions: connection test and tool sync (both on a worker), and the stored tool list. */
export const mcpServerActionRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v1/mcp-servers/:id/test',
    summary: 'Test the connection (always 200; status error with a message on failure)',
    errors: [502, 503, 504],
    tag: 'mcp',
    permission: 'mcp:manage',
    response: testJson,
    handler: runOnWorker('test'),
  }),
  route({
    method: 'post',
    path: '/api/v1/mcp-servers/:id/refresh-tools',
    summary: 'Synchronise tool descriptors from the server',
    errors: [502, 503, 504],
    tag: 'mcp',
    permission: 'mcp:manage',
    response: syncJson,
    handler: runOnWorker('sync'),
  }),
  route({
    method: 'get',
    path: '/api/v1/mcp-servers/:id/tools',
    summary: 'List stored tool descriptors (no call to the server)',
    tag: 'mcp',
    permission: 'mcp:view',
    query: pageQuery,
    response: z.array(toolJson),
    handler: async (ctx) => {
      const server = await requireMcpServer(ctx.deps.db, ctx.auth.workspaceId, ctx.params.id);
      return linkedPage(ctx, (page) => pageServerTools(ctx.deps.db, server.id, page), toToolJson);
    },
  }),
];
