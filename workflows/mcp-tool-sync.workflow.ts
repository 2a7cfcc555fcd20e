import { proxyActivities } from '@temporalio/workflow';
import type { McpServerRef, McpToolSyncResult } from '../activities/mcp/mcp.activities';
import { MCP_SYNC_ACTIVITY } from './activity-options';
import type { Activities } from '../activities';

const { syncMcpTools } = proxyActivities<Activities>(MCP_SYNC_ACTIVITY);

/** Synchronises a server's tool descriptors; run under id `mcp-tool-sync:<serverId>` so concurrent calls share it. */
export async function mcpToolSyncWorkflow(input: McpServerRef): Promise<McpToolSyncResult> {
  return syncMcpTools(input);
}
