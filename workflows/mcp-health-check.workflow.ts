import { patched, proxyActivities } from '@temporalio/workflow';
import type { McpServerRef } from '../activities/mcp/mcp.activities';
import type { McpHealthCheckResult } from '../activities/mcp/mcp-health.activities';
import { BOOKKEEPING_ACTIVITY, MCP_TEST_ACTIVITY } from './activity-options';
import type { Activities } from '../activities';

const { testMcpServer } = proxyActivities<Activities>(MCP_TEST_ACTIVITY);
const { checkMcpServerHealth } = proxyActivities<Activities>(MCP_TEST_ACTIVITY);
const { recordMcpHealthCheck } = proxyActivities<Activities>(BOOKKEEPING_ACTIVITY);

/**
 * One scheduled health check (schedule `mcp-health:<server id>`): the connection test in one of its workspace's slots
 * on the worker, then its bookkeeping; a check skipped for want of a slot records nothing.
 */
export async function mcpHealthCheckWorkflow(input: McpServerRef): Promise<McpHealthCheckResult> {
  // Checks started before the per-workspace slots replay their plain test.
  const result = patched('health-check-slots') ? await checkMcpServerHealth(input) : await testMcpServer(input);
  if (result.status === 'skipped') return result;
  await recordMcpHealthCheck({ ...input, result });
  return result;
}
