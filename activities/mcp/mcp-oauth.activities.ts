import { findMcpServer } from '../../db/mcp-server.repository';
import { logError } from '../../lib/logger';
import { oauthClientUrls } from '../../lib/mcp/oauth-vault';
import { scrubSecrets } from '../../lib/outbound/mcp/mcp-failure';
import { beginAuthorization, completeAuthorization } from '../../lib/outbound/mcp/oauth/oauth-authorization';
import type { ActivityDeps } from '../platform/activity-deps';
import type { McpServerRef } from './mcp.activities';

/** An authorization step's answer: what the api hands on, or why it failed (secret-free). */
export type McpAuthorizeResult = { status: 'ok'; authorization_url: string } | { status: 'error'; message: string };
export type McpExchangeResult = { status: 'authorized' } | { status: 'error'; message: string };

// OAuth errors carry the authorization server's own description; the server's url query could hold a key.
const messageOf = (error: unknown, url: string | undefined): string =>
  scrubSecrets(error instanceof Error ? error.message : String(error), url ? [new URL(url).search] : []).slice(0, 500);

/** OAuth of remote MCP servers on the worker: start an authorization, exchange the code a callback stored. */
export function createMcpOauthActivities(deps: ActivityDeps) {
  const oauth = () => ({
    db: deps.db,
    vault: deps.vault,
    guard: deps.egress,
    oauthClient: oauthClientUrls(deps.config),
  });
  const load = async (input: McpServerRef) => {
    const server = await findMcpServer(deps.db, input.workspaceId, input.serverId);
    if (!server?.auth_type) throw new Error('not an OAuth MCP server');
    return server;
  };
  const log = (input: McpServerRef) => ({ mcp_server_id: input.serverId, workspace_id: input.workspaceId });

  return {
    /** Discovery, client identity and PKCE for a new authorization; answers the URL (the api adds `state`). */
    async beginMcpAuthorization(input: McpServerRef): Promise<McpAuthorizeResult> {
      const server = await load(input);
      try {
        return { status: 'ok', authorization_url: await beginAuthorization(oauth(), server) };
      } catch (error) {
        deps.logger.warn({ ...log(input), ...logError(error) }, 'mcp oauth authorization not started');
        return { status: 'error', message: messageOf(error, server.config.url) };
      }
    },

    /** Exchanges the stored code for tokens (vault only); the server becomes `pending`, ready for a sync. */
    async completeMcpAuthorization(input: McpServerRef): Promise<McpExchangeResult> {
      const server = await load(input);
      try {
        await completeAuthorization(oauth(), server);
        deps.logger.info(log(input), 'mcp server authorized');
        return { status: 'authorized' };
      } catch (error) {
        deps.logger.warn({ ...log(input), ...logError(error) }, 'mcp oauth code exchange failed');
        return { status: 'error', message: messageOf(error, server.config.url) };
      }
    },
  };
}
