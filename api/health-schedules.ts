import type { McpServer } from '../db/tables/mcp.table';
import { logError } from '../lib/logger';
import { deleteScheduleIfExists, ensureIntervalSchedule } from '../lib/temporal/schedules';
import type { mcpHealthCheckWorkflow } from '../workflows/mcp-health-check.workflow';
import { McpServerIdKey, WorkspaceIdKey, workflowIds } from '../workflows/temporal-names';
import type { AppDeps } from './app-deps';
import { HttpError } from './http-error';

/**
 * The Temporal Schedule of each MCP server's health checks (`mcp-health:<server id>`): created with the server (and
 * again, if missing, when it connects or its interval changes), deleted with it. Temporal unreachable: 503.
 */

const UNAVAILABLE = 'the workflow service is unavailable';

async function orUnavailable<T>(deps: AppDeps, serverId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    deps.logger.error({ ...logError(error), mcp_server_id: serverId }, 'mcp health schedule not changed');
    throw new HttpError(503, 'unavailable', UNAVAILABLE);
  }
}

const every = (server: McpServer): number => server.health_check_interval_seconds * 1000;

/** Creates the server's schedule, or sets the interval of the one it has. */
export async function ensureHealthSchedule(deps: AppDeps, server: McpServer): Promise<void> {
  const scheduleId = workflowIds.mcpHealth(server.id);
  await orUnavailable(deps, server.id, () =>
    ensureIntervalSchedule<typeof mcpHealthCheckWorkflow>(deps.temporal, scheduleId, every(server), {
      type: 'startWorkflow',
      workflowType: 'mcpHealthCheckWorkflow',
      workflowId: scheduleId,
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      args: [{ workspaceId: server.workspace_id, serverId: server.id }],
      // A check no worker picks up does not wait past the next few.
      workflowExecutionTimeout: '5 minutes',
      typedSearchAttributes: [
        { key: WorkspaceIdKey, value: server.workspace_id },
        { key: McpServerIdKey, value: server.id },
      ],
    }),
  );
}

/** Deletes the server's schedule (none is fine). */
export async function deleteHealthSchedule(deps: AppDeps, serverId: string): Promise<void> {
  await orUnavailable(deps, serverId, () => deleteScheduleIfExists(deps.temporal, workflowIds.mcpHealth(serverId)));
}
