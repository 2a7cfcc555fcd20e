import { z } from 'zod';
import { boundedObject } from '../../domain/bounded-schemas';
import { toolArgumentProblem } from '../../domain/mcp/tool-arguments';
import { invalidFields } from '../field-errors';
import { requireMcpServer, requireServerTool } from '../lookups';
import { route, type RouteSpec } from '../route';
import { runMcpToolCall } from '../workflow-starts';

const callBody = z
  .object({
    arguments: boundedObject('toolArgsBytes')
      .default({})
      .describe("the tool's arguments, checked against its stored input schema"),
  })
  .strict();

const callJson = z.object({
  content: z.array(z.unknown()).describe("the tool's content blocks, as the server answered them"),
  structuredContent: z.unknown().optional(),
  isError: z.boolean(),
  latency_ms: z.number().int().describe('the call on the worker, the MCP handshake included'),
  output_schema_check: z
    .object({ valid: z.boolean(), errors: z.array(z.string()).optional() })
    .nullable()
    .describe(
      'structuredContent checked against the tool outputSchema; null when it declares none or answered isError',
    ),
});

/** The playground: one call of a synced tool on a worker, answered raw with its output-schema check. */
export const mcpToolCallRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v1/mcp-servers/:id/tools/:tool/call',
    summary: 'Call one synced tool and answer its raw result (the playground)',
    errors: [502, 503, 504],
    tag: 'mcp',
    permission: 'mcp:call',
    body: callBody,
    response: callJson,
    handler: async ({ body, params, auth, deps }) => {
      const server = await requireMcpServer(deps.db, auth.workspaceId, params.id);
      const tool = await requireServerTool(deps.db, server.id, params.tool);
      const problem = toolArgumentProblem(tool, body.arguments, 'arguments');
      if (problem) throw invalidFields([problem]);
      return runMcpToolCall(deps, {
        workspaceId: auth.workspaceId,
        serverId: server.id,
        toolName: tool.name,
        arguments: body.arguments,
      });
    },
  }),
];
