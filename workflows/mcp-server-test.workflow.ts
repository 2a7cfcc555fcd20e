import { proxyActivities } from '@temporalio/workflow';
import type { McpServerRef, McpTestResult } from '../activities/mcp/mcp.activities';
import { MCP_TEST_ACTIVITY } from './activity-options';
import type { Activities } from '../activities';

const { testMcpServer } = proxyActivities<Activities>(MCP_TEST_ACTIVITY);

/** Tests a server's connection on a worker (never in the api process) and answers the outcome. */
export async function mcpServerTestWorkflow(input: McpServerRef): Promise<McpTestResult> {
  return testMcpServer(input);
}
