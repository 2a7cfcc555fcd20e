import { z } from 'zod';
import { deleteAgentMcpLink, pageAgentMcpLinks, upsertAgentMcpLink } from '../../db/agent-mcp-link.repository';
import { notFound } from '../http-error';
import { requireAgent, requireMcpServer } from '../lookups';
import { route, type RouteSpec } from '../route';
import { linkedPage, pageQuery } from '../paging';
import { linkJson, toLinkJson } from '../json/agent-link.json';
import { toolAllowlistSchema, toolOverridesSchema, toolPrefixSchema } from '../../domain/mcp/gateway-policy';

// sandbox_real_calls: live eval runs call this server for real (for read-only servers); record_cassette: those real
// responses are recorded into the eval set's cassette (and replayed from it after); left out, each keeps its value.
const linkBody = z.object({
  mcp_server_id: z.string().min(1).max(200),
  enabled: z.boolean().default(true),
  sandbox_real_calls: z.boolean().optional(),
  record_cassette: z.boolean().optional(),
  // The gateway's policy for this link (left out, each keeps its value; a new link exposes every tool as <server>__).
  tools: toolAllowlistSchema.optional(),
  tool_prefix: toolPrefixSchema.optional(),
  tool_overrides: toolOverridesSchema.optional(),
});

/** Agent ↔ MCP server links: link (or update enabled), list, unlink; agent and server share the workspace. */
export const agentLinkRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v1/agents/:agent_id/mcp-servers',
    summary: 'Link an MCP server to an agent, or update enabled, its opt-ins and its gateway policy',
    tag: 'mcp',
    permission: 'mcp:manage',
    body: linkBody,
    response: linkJson,
    handler: async ({ body, params, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent_id);
      const server = await requireMcpServer(deps.db, auth.workspaceId, body.mcp_server_id);
      const { enabled, mcp_server_id: _, ...optIns } = body;
      return toLinkJson(await upsertAgentMcpLink(deps.db, agent.id, server.id, enabled, optIns));
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/agents/:agent_id/mcp-servers',
    summary: "List an agent's MCP server links",
    tag: 'mcp',
    permission: 'mcp:view',
    query: pageQuery,
    response: z.array(linkJson),
    handler: async (ctx) => {
      const agent = await requireAgent(ctx.deps.db, ctx.auth.workspaceId, ctx.params.agent_id);
      return linkedPage(ctx, (page) => pageAgentMcpLinks(ctx.deps.db, agent.id, page), toLinkJson);
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/agents/:agent_id/mcp-servers/:server_id',
    summary: 'Unlink an MCP server from an agent',
    tag: 'mcp',
    permission: 'mcp:manage',
    status: 204,
    handler: async ({ params, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent_id);
      const server = await requireMcpServer(deps.db, auth.workspaceId, params.server_id);
      if (!(await deleteAgentMcpLink(deps.db, agent.id, server.id))) throw notFound('link');
      return undefined;
    },
  }),
];
