import type { Client } from '@temporalio/client';
import { settleAgentRun } from '../db/agent-run.repository';
import type { Db } from '../db/database';
import { settleEvalRun } from '../db/eval-run.repository';
import { settleFlowRun } from '../db/flow-run.repository';
import {
  FIRST_RUN_CURSOR,
  listUnfinishedRuns,
  type RunKind,
  type UnfinishedRun,
} from '../db/unfinished-run.repository';
import { settlementFor, type Settlement } from '../domain/eval/run-settlement';
import { logError, type Logger } from '../lib/logger';
import { workflowState } from '../lib/temporal/workflow-state';
import { evalRunsEnded } from '../lib/metrics';
import { workflowIds } from '../workflows/temporal-names';
import { every } from './periodic';

/** Rows looked at per kind and sweep: a sweep stays cheap however many runs are in flight (the cursor moves on). */
const SWEEP_BATCH = 100;
/** The api writes a run's row before it starts the workflow: a missing workflow counts only after this long. */
const MISSING_WORKFLOW_GRACE_MS = 5 * 60_000;

const KINDS: Record<
  RunKind,
  { workflowId(run: UnfinishedRun): string; settle(db: Db, run: UnfinishedRun, s: Settlement): Promise<boolean> }
> = {
  eval: { workflowId: (run) => workflowIds.evalRun(run.id), settle: (db, run, s) => settleEvalRun(db, run.id, s) },
  flow: { workflowId: (run) => workflowIds.flowRun(run.id), settle: (db, run, s) => settleFlowRun(db, run.id, s) },
  agent: { workflowId: (run) => run.key ?? '', settle: (db, run, s) => settleAgentRun(db, { id: run.id }, s) },
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
      if (!settlement || !(await KINDS[kind].settle(deps.db, run, settlement))) continue;
      settled++;
      if (kind === 'eval') evalRunsEnded.inc({ status: settlement.status });
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
