import { recordHealthCheck } from '../../db/mcp-health.repository';
import { mcpHealthScheduleId } from '../../domain/mcp/mcp-health';
import { deleteScheduleIfExists } from '../../lib/temporal/schedules';
import type { ActivityDeps } from '../platform/activity-deps';
import { createWorkspaceSlots } from '../../lib/workspace-slots';
import { createMcpActivities, type McpServerRef, type McpTestResult } from './mcp.activities';

/** A scheduled check's answer: the connection test's, or `skipped` when its workspace's slots on the worker were full. */
export type McpHealthCheckResult = McpTestResult | { status: 'skipped'; reason: string };

/** MCP health bookkeeping: what a scheduled check found, and the server's status by its streak of failures. */
export function createMcpHealthActivities(deps: ActivityDeps) {
  const cap = deps.config.WORKSPACE_HEALTH_CHECK_CONCURRENCY;
  const slots = createWorkspaceSlots(cap);
  const { testMcpServer } = createMcpActivities(deps);

  return {
    /**
     * The connection test of a scheduled check, in one of its workspace's `WORKSPACE_HEALTH_CHECK_CONCURRENCY` slots on
     * this worker; with all of them held it is skipped at once (the server's next interval tries again), so the
     * worker's activity slots stay free for other workspaces' runs and checks.
     */
    async checkMcpServerHealth(input: McpServerRef): Promise<McpHealthCheckResult> {
      const release = slots.tryTake(input.workspaceId);
      if (!release) {
        const reason = `the workspace has ${cap} health checks in flight on this worker (WORKSPACE_HEALTH_CHECK_CONCURRENCY)`;
        deps.logger.debug(
          { mcp_server_id: input.serverId, workspace_id: input.workspaceId },
          'mcp health check skipped',
        );
        return { status: 'skipped', reason };
      }
      try {
        return await testMcpServer(input);
      } finally {
        release();
      }
    },

    /**
     * Records a scheduled check and moves the server's status (`error` after `MCP_HEALTH_FAILURES_TO_ERROR` failures in
     * a row, back on the next success). A server that is gone takes its schedule with it.
     */
    async recordMcpHealthCheck(input: McpServerRef & { result: McpTestResult }): Promise<void> {
      const failuresToError = deps.config.MCP_HEALTH_FAILURES_TO_ERROR;
      const recorded = await recordHealthCheck(deps.db, input.serverId, input.result, failuresToError);
      const log = { mcp_server_id: input.serverId, workspace_id: input.workspaceId };
      if (!recorded) {
        await deleteScheduleIfExists(deps.temporal, mcpHealthScheduleId(input.serverId));
        deps.logger.info(log, 'mcp health schedule of a deleted server removed');
        return;
      }
      const { before, after } = recorded;
      if (before.status !== after.status)
        deps.logger.warn({ ...log, from: before.status, to: after.status }, 'mcp server health status changed');
    },
  };
}
