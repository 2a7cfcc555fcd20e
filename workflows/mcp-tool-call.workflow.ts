import { proxyActivities } from '@temporalio/workflow';
import type { McpToolCallInput, McpToolCallResult } from '../activities/mcp/mcp-tool-call.activities';
import { MCP_CALL_ACTIVITY } from './activity-options';
import type { Activities } from '../activities';

const { callMcpTool } = proxyActivities<Activities>(MCP_CALL_ACTIVITY);

/** Calls one tool of a server on a worker (never in the api process) for the playground and answers the result. */
export async function mcpToolCallWorkflow(input: McpToolCallInput): Promise<McpToolCallResult> {
  return callMcpTool(input);
}
