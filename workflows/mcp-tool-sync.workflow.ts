import { proxyActivities } from '@temporalio/workflow';
import type { McpActivities, McpServerRef, McpToolSyncResult } from '../activities/mcp.activities';

// Transient failures (timeouts, 5xx, resets) get two more tries; the activity marks unfixable ones non-retryable.
const { syncMcpTools } = proxyActivities<McpActivities>({
  startToCloseTimeout: '3 minutes',
  retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
});

/** Synchronises a server's tool descriptors; run under id `mcp-tool-sync:<serverId>` so concurrent calls share it. */
export async function mcpToolSyncWorkflow(input: McpServerRef): Promise<McpToolSyncResult> {
  return syncMcpTools(input);
}
