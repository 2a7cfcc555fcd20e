import { ApplicationFailure } from '@temporalio/common';
import { markMcpServerError, recordMcpServerTest } from '../../db/mcp-server.repository';
import { saveToolSync } from '../../db/mcp-tool.repository';
import type { ToolChanges } from '../../domain/mcp/tool-changes';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { logError } from '../../lib/logger';
import { listAllTools, toToolDescriptor } from '../../lib/outbound/mcp/list-tools';
import { describeMcpFailure } from '../../lib/outbound/mcp/mcp-failure';
import { requestTimeoutMs, withMcpSession } from '../../lib/outbound/mcp/mcp-session';
import { preflightRefusal } from '../../lib/outbound/mcp/preflight';
import { McpTargetError, resolveServerTarget, type ResolvedServer } from '../../lib/outbound/mcp/server-target';
import { oauthClientUrls } from '../../lib/mcp/oauth-vault';
import type { ActivityDeps } from '../platform/activity-deps';

/** Which server of which workspace; secrets travel as the server's credential id, never as values. */
export interface McpServerRef {
  workspaceId: string;
  serverId: string;
}

/** The connection test's answer, as the API returns it. */
export type McpTestResult = { status: 'connected'; latency_ms: number } | { status: 'error'; message: string };

/** A successful sync: the spec's body plus what changed since the previous sync. */
export interface McpToolSyncResult {
  status: 'connected';
  tools_count: number;
  synced_at: string;
  changes: ToolChanges;
}

/** MCP activities: the connection test and the tool sync, both through the egress guard. */
export function createMcpActivities(deps: ActivityDeps) {
  const guard = deps.egress;

  const resolve = (input: McpServerRef): Promise<ResolvedServer> =>
    resolveServerTarget(deps.db, deps.vault, input.workspaceId, input.serverId, {
      guard,
      oauthClient: oauthClientUrls(deps.config),
    });

  async function runTest(input: McpServerRef): Promise<McpTestResult> {
    let resolved: ResolvedServer;
    try {
      resolved = await resolve(input);
    } catch (error) {
      if (error instanceof McpTargetError) return { status: 'error', message: error.message };
      throw error;
    }
    const refusal = await preflightRefusal(resolved.target, guard);
    if (refusal) return { status: 'error', message: refusal };
    const started = performance.now();
    try {
      await withMcpSession(resolved.target, guard, async () => undefined);
      return { status: 'connected', latency_ms: Math.round(performance.now() - started) };
    } catch (error) {
      const context = {
        timeoutMs: requestTimeoutMs(resolved.target),
        secrets: resolved.secretValues,
        command: commandOf(resolved),
      };
      return { status: 'error', message: describeMcpFailure(error, context).message };
    }
  }

  return {
    /** Connects and runs the MCP handshake; records the outcome on the server without changing its status. */
    async testMcpServer(input: McpServerRef): Promise<McpTestResult> {
      const result = await runTest(input);
      await recordMcpServerTest(deps.db, input.serverId, { ...result, tested_at: new Date().toISOString() });
      deps.logger.info({ mcp_server_id: input.serverId, status: result.status }, 'mcp server tested');
      return result;
    },

    /**
     * Handshakes, lists every tool page, persists descriptors and marks the server connected; a failure marks it
     * `error`, but one that needs a person to authorize (a 403 `insufficient_scope` step-up, no token to be had)
     * leaves it `authorization_required`.
     */
    async syncMcpTools(input: McpServerRef): Promise<McpToolSyncResult> {
      let tools: ReturnType<typeof toToolDescriptor>[];
      let resolved: ResolvedServer | undefined;
      try {
        resolved = await resolve(input);
        const refusal = await preflightRefusal(resolved.target, guard);
        if (refusal) throw new McpTargetError(refusal);
        const timeoutMs = requestTimeoutMs(resolved.target);
        const { secretValues } = resolved;
        tools = (
          await withMcpSession(resolved.target, guard, (session) =>
            listAllTools(session.client, timeoutMs, secretValues),
          )
        ).map(toToolDescriptor);
      } catch (error) {
        const context = {
          timeoutMs: resolved ? requestTimeoutMs(resolved.target) : 0,
          secrets: resolved?.secretValues ?? [],
          command: resolved && commandOf(resolved),
        };
        const failure = describeMcpFailure(error, context);
        // A step-up or a token that cannot be had left the server `authorization_required`: a person must act.
        if (!failure.authorizationRequired) await markMcpServerError(deps.db, input.serverId, failure.message);
        deps.logger.warn({ mcp_server_id: input.serverId, ...logError(failure) }, 'mcp tool sync failed');
        throw failure.retryable
          ? ApplicationFailure.retryable(failure.message, RUN_FAILURE.mcpToolSyncFailed)
          : ApplicationFailure.nonRetryable(failure.message, RUN_FAILURE.mcpToolSyncFailed);
      }
      const syncedAt = new Date();
      const changes = await saveToolSync(deps.db, input.serverId, tools, syncedAt);
      deps.logger.info(
        {
          mcp_server_id: input.serverId,
          tools_count: tools.length,
          added: changes.added.length,
          removed: changes.removed.length,
          changed: changes.changed.length,
        },
        'mcp tools synced',
      );
      return { status: 'connected', tools_count: tools.length, synced_at: syncedAt.toISOString(), changes };
    },
  };
}

function commandOf(resolved: ResolvedServer): string | undefined {
  return resolved.target.transport === 'stdio_curated' ? resolved.target.command[0] : undefined;
}
