import { recordHealthCheck } from '../db/mcp-health.repository';
import { mcpHealthScheduleId } from '../domain/mcp-health';
import { deleteScheduleIfExists } from '../lib/temporal/schedules';
import type { ActivityDeps } from './activity-deps';
import type { McpServerRef, McpTestResult } from './mcp.activities';

/** MCP health bookkeeping: what a scheduled check found, and the server's status by its streak of failures. */
export function createMcpHealthActivities(deps: ActivityDeps) {
  return {
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

export type McpHealthActivities = ReturnType<typeof createMcpHealthActivities>;
