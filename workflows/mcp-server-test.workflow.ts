import { proxyActivities } from '@temporalio/workflow';
import type { McpActivities, McpServerRef, McpTestResult } from '../activities/mcp.activities';

// One attempt: the caller is waiting for this exact answer, and the activity reports failures as a result.
const { testMcpServer } = proxyActivities<McpActivities>({
  startToCloseTimeout: '90 seconds',
  retry: { maximumAttempts: 1 },
});

/** Tests a server's connection on a worker (never in the api process) and answers the outcome. */
export async function mcpServerTestWorkflow(input: McpServerRef): Promise<McpTestResult> {
  return testMcpServer(input);
}
