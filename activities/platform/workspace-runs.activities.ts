import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import {
  FIRST_RUN_CURSOR,
  listUnfinishedRuns,
  type RunKind,
  type UnfinishedRun,
} from '../../db/unfinished-run.repository';
import { evalRunWorkflowId, flowRunWorkflowId } from '../../domain/eval/run-workflow-ids';
import { workflowState } from '../../lib/temporal/workflow-state';
import type { ActivityDeps } from './activity-deps';
import { refuseLiveWorkspace, type WorkspaceDeletionRef } from './workspace-deletion.activities';

/** What stopping a deleted workspace's runs took: runs asked to cancel, and those terminated after the grace. */
export interface StoppedRuns {
  cancelled: number;
  terminated: number;
}

const WORKFLOW_OF: Record<RunKind, (run: UnfinishedRun) => string> = {
  eval: (run) => evalRunWorkflowId(run.id),
  flow: (run) => flowRunWorkflowId(run.id),
  agent: (run) => run.key ?? '',
};
const PAGE = 100;
// How often the stop looks whether the cancelled runs have ended (each records `cancelled` as it ends).
const POLL_MS = 1_000;
// A run that has not ended this long after its cancel (its worker gone, a step deaf to it) is terminated.
const CANCEL_GRACE_MS = 2 * 60_000;

/** Stopping a deleted workspace's eval, flow and agent runs before anything of it is purged. */
export function createWorkspaceRunActivities(deps: ActivityDeps) {
  // The workflows of the workspace's unfinished run rows that are still running, paged through by id.
  const runningWorkflows = async (workspaceId: string): Promise<WorkflowHandle[]> => {
    const running: WorkflowHandle[] = [];
    for (const kind of Object.keys(WORKFLOW_OF) as RunKind[]) {
      for (let after = FIRST_RUN_CURSOR; ;) {
        const page = await listUnfinishedRuns(deps.db, kind, after, PAGE, workspaceId);
        for (const run of page) {
          const workflowId = WORKFLOW_OF[kind](run);
          if ((await workflowState(deps.temporal, workflowId)) === 'RUNNING')
            running.push(deps.temporal.workflow.getHandle(workflowId));
        }
        if (page.length < PAGE) break;
        after = page[page.length - 1].id;
      }
    }
    return running;
  };

  return {
    /**
     * Cancels every running eval, flow and agent run of a workspace marked deleted and waits until each has ended (the
     * runs end `cancelled` themselves, and stop calling providers as they hear of it); one still running after the
     * grace is terminated. Heartbeats while it waits. Done before the purge, so no row goes from under a running run.
     */
    async stopWorkspaceRuns(input: WorkspaceDeletionRef): Promise<StoppedRuns> {
      await refuseLiveWorkspace(deps, input.workspaceId);
      const context = Context.current();
      const asked = new Set<string>();
      const started = Date.now();
      let terminated = 0;
      for (;;) {
        const running = await runningWorkflows(input.workspaceId);
        if (running.length === 0) return { cancelled: asked.size, terminated };
        const overdue = Date.now() - started > CANCEL_GRACE_MS;
        for (const handle of running) {
          if (overdue) {
            await handle.terminate('its workspace was deleted').catch((error: unknown) => {
              if (!(error instanceof WorkflowNotFoundError)) throw error;
            });
            terminated++;
          } else if (!asked.has(handle.workflowId)) {
            await handle.cancel();
            asked.add(handle.workflowId);
          }
        }
        deps.logger.info({ workspace_id: input.workspaceId, running: running.length }, 'workspace runs stopping');
        context.heartbeat();
        await context.sleep(POLL_MS);
      }
    },
  };
}
