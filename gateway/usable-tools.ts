import type { Db } from '../db/database';
import { listServerTools } from '../db/mcp-tool.repository';
import type { McpTool } from '../db/tables/mcp.table';

/**
 * The stored tools of a server the gateway may show and call: the one place the gateway reads a server's tools (the
 * tool-approval work narrows it to approved, unquarantined tools).
 */
export async function usableTools(db: Db, serverId: string): Promise<McpTool[]> {
  return listServerTools(db, serverId);
}
