import { findAgent } from '../db/agent.repository';
import { isUuid } from '../db/column-values';
import { findFlow } from '../db/flow.repository';
import { findMcpServer } from '../db/mcp-server.repository';
import type { Db } from '../db/database';
import type { Agent } from '../db/tables/agent.table';
import type { Flow } from '../db/tables/flow.table';
import type { McpServer } from '../db/tables/mcp.table';
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

/** The caller's flow by id, or 404. */
export async function requireFlow(db: Db, workspaceId: string, id: string): Promise<Flow> {
  const flow = isUuid(id) ? await findFlow(db, workspaceId, id) : undefined;
  if (!flow) throw notFound('flow');
  return flow;
}
