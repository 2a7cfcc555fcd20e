import { ApplicationFailure } from '@temporalio/common';
import { pageWorkspaceServerIds } from '../../db/mcp-health.repository';
import { isLiveWorkspace, purgeWorkspaceRows } from '../../db/workspace-purge.repository';
import { mcpHealthScheduleId } from '../../domain/mcp/mcp-health';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { deleteScheduleIfExists } from '../../lib/temporal/schedules';
import type { ActivityDeps } from './activity-deps';

/** Which workspace a deletion purges. */
export interface WorkspaceDeletionRef {
  workspaceId: string;
}

/** What one call removed, and whether nothing of its kind is left. */
export interface PurgeProgress {
  deleted: number;
  done: boolean;
}

/** Schedules one call removes, walking the workspace's servers by id: `after` is where the next call goes on. */
export interface SchedulePurgeProgress extends PurgeProgress {
  after?: string;
}

/** Rows per statement, and rows (or secrets) per activity call: each call is short, each statement bounded. */
export const PURGE_PAGE_SIZE = 1_000;
const ROWS_PER_CALL = 20_000;
const SECRET_PAGES_PER_CALL = 10;
const SCHEDULES_PER_CALL = 100;

/** Refuses to purge or stop anything of a workspace that is not marked deleted. */
export async function refuseLiveWorkspace(deps: ActivityDeps, workspaceId: string): Promise<void> {
  if (await isLiveWorkspace(deps.db, workspaceId))
    throw ApplicationFailure.nonRetryable(
      `workspace ${workspaceId} is not marked deleted`,
      RUN_FAILURE.workspaceNotDeleted,
    );
}

/** The purge of a deleted workspace: its secrets in the credential vault, then its rows. */
export function createWorkspaceDeletionActivities(deps: ActivityDeps) {
  return {
    /** Deletes the health-check schedules of a page of the workspace's MCP servers (before their rows go). */
    async deleteWorkspaceSchedules(input: WorkspaceDeletionRef & { after?: string }): Promise<SchedulePurgeProgress> {
      await refuseLiveWorkspace(deps, input.workspaceId);
      const ids = await pageWorkspaceServerIds(deps.db, input.workspaceId, input.after, SCHEDULES_PER_CALL);
      let deleted = 0;
      for (const id of ids) if (await deleteScheduleIfExists(deps.temporal, mcpHealthScheduleId(id))) deleted++;
      return { deleted, done: ids.length < SCHEDULES_PER_CALL, after: ids.at(-1) ?? input.after };
    },

    /** Deletes a page or a few of the workspace's secrets from the credential vault (either backend). */
    async deleteWorkspaceSecrets(input: WorkspaceDeletionRef): Promise<PurgeProgress> {
      await refuseLiveWorkspace(deps, input.workspaceId);
      let deleted = 0;
      for (let page = 0; page < SECRET_PAGES_PER_CALL; page++) {
        const count = await deps.vault.deleteWorkspacePage(input.workspaceId, PURGE_PAGE_SIZE);
        deleted += count;
        if (count === 0) return { deleted, done: true };
      }
      return { deleted, done: false };
    },

    /** Deletes up to a budget of the workspace's rows, at most a page per statement, the workspace row last. */
    async deleteWorkspaceRows(input: WorkspaceDeletionRef): Promise<PurgeProgress> {
      await refuseLiveWorkspace(deps, input.workspaceId);
      const progress = await purgeWorkspaceRows(deps.db, input.workspaceId, {
        rows: ROWS_PER_CALL,
        pageSize: PURGE_PAGE_SIZE,
      });
      deps.logger.info({ workspace_id: input.workspaceId, ...progress }, 'workspace rows purged');
      return progress;
    },
  };
}
