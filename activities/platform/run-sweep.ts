import type { Client } from '@temporalio/client';
import type { Db } from '../../db/database';
import {
  FIRST_RUN_CURSOR,
  listUnfinishedRuns,
  type RunKind,
  type UnfinishedRun,
} from '../../db/unfinished-run.repository';
import { endForWorkflowState, type ImposedEnd } from '../../domain/eval/run-end';
import type { Logger } from '../../lib/logger';
import { endAgentRun, endEvalRun, endFlowRun } from '../../lib/run-ends';
import { workflowState } from '../../lib/temporal/workflow-state';
import { evalRunWorkflowId, flowRunWorkflowId } from '../../domain/eval/run-workflow-ids';

/** Rows looked at per kind and page: each page is one short query however many runs are in flight. */
const SWEEP_BATCH = 100;
/** The api writes a run's row before it starts the workflow: a missing workflow counts only after this long. */
const MISSING_WORKFLOW_GRACE_MS = 5 * 60_000;

const KINDS: Record<
  RunKind,
  { workflowId(run: UnfinishedRun): string; end(db: Db, id: string, stopped: ImposedEnd): Promise<boolean> }
> = {
  eval: { workflowId: (run) => evalRunWorkflowId(run.id), end: (db, id, s) => endEvalRun(db, id, { stopped: s }) },
  flow: {
    workflowId: (run) => flowRunWorkflowId(run.id),
    end: async (db, id, s) => (await endFlowRun(db, id, { stopped: s })) !== undefined,
  },
  agent: {
    // A live case's sandbox run lives in its eval run's workflow (or, started before that, in a child it closes).
    workflowId: (run) => (run.eval_run_id ? evalRunWorkflowId(run.eval_run_id) : (run.key ?? '')),
    end: async (db, id, s) => (await endAgentRun(db, id, { stopped: s })) !== undefined,
  },
};

/** What the sweep needs: Postgres, a Temporal client to describe workflows, and a beat per run looked at. */
export interface RunSweepDeps {
  db: Db;
  client: Client;
  logger: Logger;
  beat?: () => void;
}

/**
 * Ends run rows whose workflow closed without writing them: a terminated workflow runs no code, and one that timed
 * out or failed outside its own handling leaves its row `running`. One pass looks at every unfinished run, a page at
 * a time, and answers how many it ended; each end only changes a row still unfinished, so passes may overlap safely.
 * Cancellation inside a workflow is handled there, and this finds the rest.
 */
export async function sweepUnfinishedRuns(deps: RunSweepDeps): Promise<number> {
  let ended = 0;
  for (const kind of Object.keys(KINDS) as RunKind[]) {
    for (let after = FIRST_RUN_CURSOR, more = true; more;) {
      const runs = await listUnfinishedRuns(deps.db, kind, after, SWEEP_BATCH);
      more = runs.length === SWEEP_BATCH;
      if (more) after = runs[runs.length - 1].id;
      for (const run of runs) {
        deps.beat?.();
        const state = await workflowState(deps.client, KINDS[kind].workflowId(run));
        const imposed = endForWorkflowState(state, Date.now() - run.created_at.getTime(), MISSING_WORKFLOW_GRACE_MS);
        if (!imposed || !(await KINDS[kind].end(deps.db, run.id, imposed))) continue;
        ended++;
        deps.logger.info(
          { run_kind: kind, run_id: run.id, workflow: state, status: imposed.status },
          'run ended by the sweep',
        );
      }
    }
  }
  return ended;
}
