import { continueAsNew, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { PurgeProgress } from '../activities/platform/workspace-deletion.activities';
import { WORKSPACE_PURGE_ACTIVITY, WORKSPACE_STOP_ACTIVITY } from './activity-options';
import type { Activities } from '../activities';

const { deleteWorkspaceSchedules, deleteWorkspaceSecrets, deleteWorkspaceRows } =
  proxyActivities<Activities>(WORKSPACE_PURGE_ACTIVITY);
const { stopWorkspaceRuns } = proxyActivities<Activities>(WORKSPACE_STOP_ACTIVITY);

/** The workflow's input: the workspace, and what earlier executions (before continue-as-new) removed. */
export interface WorkspaceDeletionInput {
  workspaceId: string;
  secretsDeleted?: number;
  rowsDeleted?: number;
  schedulesDeleted?: number;
  /** The last server whose schedule is removed; absent before the first page. */
  schedulesAfter?: string;
  schedulesDone?: boolean;
  /** Runs asked to cancel; set once they have all ended. */
  runsCancelled?: number;
}

/** What a finished deletion removed. */
export interface WorkspaceDeletionResult {
  secrets_deleted: number;
  rows_deleted: number;
  schedules_deleted: number;
  runs_cancelled: number;
}

/**
 * Purges a workspace already marked deleted, under id `workspace-deletion:<id>`: first it cancels the workspace's
 * eval, flow and agent runs and waits until they have ended (`cancelled`), then the health-check schedules of its MCP
 * servers, then every secret of it in the credential vault, then its rows, each call a bounded batch. Runs first, so
 * no row goes from under a running run and no provider is called for the workspace once they hear of it; schedules and
 * secrets before rows, so no row that names one is gone while it stays. History stays bounded: it continues as new
 * when Temporal suggests it.
 */
export async function workspaceDeletionWorkflow(input: WorkspaceDeletionInput): Promise<WorkspaceDeletionResult> {
  const state = {
    ...input,
    secretsDeleted: input.secretsDeleted ?? 0,
    rowsDeleted: input.rowsDeleted ?? 0,
    schedulesDeleted: input.schedulesDeleted ?? 0,
  };
  const drain = async (
    purge: (ref: { workspaceId: string }) => Promise<PurgeProgress>,
    counter: 'secretsDeleted' | 'rowsDeleted',
  ): Promise<boolean> => {
    for (;;) {
      const progress = await purge({ workspaceId: state.workspaceId });
      state[counter] += progress.deleted;
      if (progress.done) return true;
      if (workflowInfo().continueAsNewSuggested) return false;
    }
  };
  // Deletions started before runs were stopped replay without this step.
  if (state.runsCancelled === undefined && patched('stop-workspace-runs'))
    state.runsCancelled = (await stopWorkspaceRuns({ workspaceId: state.workspaceId })).cancelled;
  // Deletions started before schedules existed replay without this step.
  while (!state.schedulesDone && patched('mcp-health-schedules')) {
    const progress = await deleteWorkspaceSchedules({ workspaceId: state.workspaceId, after: state.schedulesAfter });
    Object.assign(state, { schedulesAfter: progress.after, schedulesDone: progress.done });
    state.schedulesDeleted += progress.deleted;
    if (!progress.done && workflowInfo().continueAsNewSuggested)
      await continueAsNew<typeof workspaceDeletionWorkflow>(state);
  }
  if (!(await drain(deleteWorkspaceSecrets, 'secretsDeleted')))
    await continueAsNew<typeof workspaceDeletionWorkflow>(state);
  if (!(await drain(deleteWorkspaceRows, 'rowsDeleted'))) await continueAsNew<typeof workspaceDeletionWorkflow>(state);
  return {
    secrets_deleted: state.secretsDeleted,
    rows_deleted: state.rowsDeleted,
    schedules_deleted: state.schedulesDeleted,
    runs_cancelled: state.runsCancelled ?? 0,
  };
}
