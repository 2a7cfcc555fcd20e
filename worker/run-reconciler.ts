import type { Client } from '@temporalio/client';
import type { Db } from '../db/database';
import {
  FIRST_RUN_CURSOR,
  listUnfinishedRuns,
  type RunKind,
  type UnfinishedRun,
} from '../db/unfinished-run.repository';
import { settlementFor, type Settlement } from '../domain/run-settlement';
import { logError, type Logger } from '../lib/logger';
import { workflowState } from '../lib/temporal/workflow-state';
import { endAgentRun, endEvalRun, endFlowRun } from '../lib/run-ends';
import { workflowIds } from '../workflows/temporal-names';
import { every } from './periodic';

/** Rows looked at per kind and sweep: a sweep stays cheap however many runs are in flight (the cursor moves on). */
const SWEEP_BATCH = 100;
/** The api writes a run's row before it starts the workflow: a missing workflow counts only after this long. */
const MISSING_WORKFLOW_GRACE_MS = 5 * 60_000;

const KINDS: Record<
  RunKind,
  { workflowId(run: UnfinishedRun): string; end(db: Db, id: string, stopped: Settlement): Promise<boolean> }
> = {
  eval: { workflowId: (run) => workflowIds.evalRun(run.id), end: (db, id, s) => endEvalRun(db, id, { stopped: s }) },
  flow: {
    workflowId: (run) => workflowIds.flowRun(run.id),
    end: async (db, id, s) => (await endFlowRun(db, id, { stopped: s })) !== undefined,
  },
  agent: {
    workflowId: (run) => run.key ?? '',
    end: async (db, id, s) => (await endAgentRun(db, id, { stopped: s })) !== undefined,
  },
};

/** What the sweep needs: Postgres, a Temporal client to describe workflows, and how often to look. */
export interface RunReconcilerDeps {
  db: Db;
  client: Client;
  logger: Logger;
  intervalMs: number;
}

/** A running sweep; `sweep()` runs one pass now (answers how many rows it settled). */
export interface RunReconciler {
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Settles run rows whose workflow closed without writing them: a terminated workflow runs no code, and one that
 * timed out or failed outside its own handling leaves its row `running`. Every worker sweeps (each update only
 * changes a row that is still unfinished, so concurrent sweeps agree); cancellation inside a workflow is handled
 * there, and this finds the rest.
 */
export function startRunReconciler(deps: RunReconcilerDeps): RunReconciler {
  const cursors: Record<RunKind, string> = { eval: FIRST_RUN_CURSOR, flow: FIRST_RUN_CURSOR, agent: FIRST_RUN_CURSOR };

  const settleKind = async (kind: RunKind): Promise<number> => {
    const runs = await listUnfinishedRuns(deps.db, kind, cursors[kind], SWEEP_BATCH);
    cursors[kind] = runs.length === SWEEP_BATCH ? runs[runs.length - 1].id : FIRST_RUN_CURSOR;
    let settled = 0;
    for (const run of runs) {
      const state = await workflowState(deps.client, KINDS[kind].workflowId(run));
      const settlement = settlementFor(state, Date.now() - run.created_at.getTime(), MISSING_WORKFLOW_GRACE_MS);
      if (!settlement || !(await KINDS[kind].end(deps.db, run.id, settlement))) continue;
      settled++;
      deps.logger.info({ run_kind: kind, run_id: run.id, workflow: state, status: settlement.status }, 'run settled');
    }
    return settled;
  };

  const sweep = async (): Promise<number> => {
    let settled = 0;
    for (const kind of Object.keys(KINDS) as RunKind[]) settled += await settleKind(kind);
    return settled;
  };

  const periodic = every(deps.intervalMs, sweep, (error) =>
    deps.logger.warn(logError(error), 'run sweep failed; retrying next time'),
  );
  return {
    sweep,
    stop: periodic.stop,
  };
}
