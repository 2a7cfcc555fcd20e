import { z } from 'zod';
import { listHealthChecks } from '../../db/mcp-health.repository';
import { requireMcpServer } from '../lookups';
import { route, type RouteSpec } from '../route';
import { checkJson, toHealthCheckJson } from '../json/mcp-health-check.json';

const healthJson = z.object({
  status: z.string(),
  consecutive_failures: z.number().int(),
  health_check_interval_seconds: z.number().int(),
  checks: z.array(checkJson).describe('the last checks, newest first (at most 50: limit mcpHealthChecksKept)'),
});

/** MCP server health: the status, the streak of failed scheduled checks and the last checks (Postgres only). */
export const mcpServerHealthRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/v1/mcp-servers/:id/health',
    summary: 'The scheduled health checks of a server: status, failures in a row and the last checks',
    tag: 'mcp',
    permission: 'mcp:view',
    response: healthJson,
    handler: async ({ params, auth, deps }) => {
      const server = await requireMcpServer(deps.db, auth.workspaceId, params.id);
      return {
        status: server.status,
        consecutive_failures: server.health_failures,
        health_check_interval_seconds: server.health_check_interval_seconds,
        checks: (await listHealthChecks(deps.db, server.id)).map(toHealthCheckJson),
      };
    },
  }),
];
