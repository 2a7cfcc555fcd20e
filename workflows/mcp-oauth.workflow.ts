import { proxyActivities } from '@temporalio/workflow';
import type { McpServerRef } from '../activities/mcp/mcp.activities';
import type { McpAuthorizeResult, McpExchangeResult } from '../activities/mcp/mcp-oauth.activities';
import { MCP_TEST_ACTIVITY } from './activity-options';
import type { Activities } from '../activities';

const { beginMcpAuthorization, completeMcpAuthorization } = proxyActivities<Activities>(MCP_TEST_ACTIVITY);

/** Starts a server's OAuth authorization on a worker; its history holds the server's id and the URL without state. */
export async function mcpOauthAuthorizeWorkflow(input: McpServerRef): Promise<McpAuthorizeResult> {
  return beginMcpAuthorization(input);
}

/** Exchanges the code a callback stored in the vault (never in this history) for tokens kept in the vault. */
export async function mcpOauthExchangeWorkflow(input: McpServerRef): Promise<McpExchangeResult> {
  return completeMcpAuthorization(input);
}
