import { findAgent } from '../db/agent.repository';
import { isUuid } from '../db/column-values';
import { findFlow } from '../db/flow.repository';
import { findMcpServer } from '../db/mcp-server.repository';
import { findServerTools } from '../db/mcp-tool.repository';
import type { Db } from '../db/database';
import type { Agent } from '../db/tables/agent.table';
import type { Flow } from '../db/tables/flow.table';
import type { McpServer, McpTool } from '../db/tables/mcp.table';
import { notFound } from './http-error';

/** The caller's agent by id or name, or 404 (also for another workspace's agent). */
export async function requireAgent(db: Db, workspaceId: string, idOrName: string): Promise<Agent> {
  const agent = await findAgent(db, workspaceId, idOrName);
  if (!agent) throw notFound('agent');
  return agent;
}

/** The caller's MCP server by id, or 404 (also for another workspace's server or a malformed id). */
export async function requireMcpServer(db: Db, workspaceId: string, id: string, lock?: 'update'): Promise<McpServer> {
  const server = isUuid(id) ? await findMcpServer(db, workspaceId, id, lock) : undefined;
  if (!server) throw notFound('mcp server');
  return server;
}

/** A stored (synced) tool of a server by name, quarantined or not, or 404 (a NUL names no tool: 404, not a database error). */
export async function requireServerTool(db: Db, serverId: string, name: string): Promise<McpTool> {
  const [tool] = name.includes('\u0000') ? [] : await findServerTools(db, serverId, [name]);
  if (!tool) throw notFound('tool');
  return tool;
}

/** The caller's flow by id, or 404. */
export async function requireFlow(db: Db, workspaceId: string, id: string): Promise<Flow> {
  const flow = isUuid(id) ? await findFlow(db, workspaceId, id) : undefined;
  if (!flow) throw notFound('flow');
  return flow;
}
