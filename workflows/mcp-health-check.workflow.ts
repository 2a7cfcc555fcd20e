import { proxyActivities } from '@temporalio/workflow';
import type { McpActivities, McpServerRef, McpTestResult } from '../activities/mcp.activities';
import type { McpHealthActivities } from '../activities/mcp-health.activities';
import { BOOKKEEPING_ACTIVITY, MCP_TEST_ACTIVITY } from './activity-options';

const { testMcpServer } = proxyActivities<McpActivities>(MCP_TEST_ACTIVITY);
const { recordMcpHealthCheck } = proxyActivities<McpHealthActivities>(BOOKKEEPING_ACTIVITY);

/** One scheduled health check (schedule `mcp-health:<server id>`): the connection test, then its bookkeeping. */
export async function mcpHealthCheckWorkflow(input: McpServerRef): Promise<McpTestResult> {
  const result = await testMcpServer(input);
  await recordMcpHealthCheck({ ...input, result });
  return result;
}
