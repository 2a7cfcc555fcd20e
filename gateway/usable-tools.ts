import type { Db } from '../db/database';
import { listUsableTools, type UsableToolsOptions } from '../db/mcp-tool.repository';
import type { McpTool } from '../db/tables/mcp.table';

/**
 * The stored tools of a server the gateway may show and call: approved ones (quarantined ones too where the link
 * auto-approves). The one place the gateway reads a server's tools.
 */
export async function usableTools(db: Db, serverId: string, options: UsableToolsOptions = {}): Promise<McpTool[]> {
  return listUsableTools(db, serverId, options);
}
