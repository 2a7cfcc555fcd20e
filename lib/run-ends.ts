import type { Db } from '../db/database';
import {
  recordAgentRunEnd,
  recordEvalRunEnd,
  recordFlowRunEnd,
  type AgentRunEnd,
  type EvalRunEnd,
  type FlowRunEnd,
} from '../db/run-end.repository';
import type { FlowRun } from '../db/tables/flow.table';
import { evalRunsEnded } from './metrics';

/**
 * The one way a run ends, per kind: the workflow's activities, the api (a start that failed, a cancel of a workflow
 * that is gone) and the run reconciler all call these. They live in `lib/` because all three rooms may import it and
 * it may import `db/` and the metrics, so the row, its NOTIFY and the count of ended runs cannot drift apart.
 */

/** Ends an eval run (status, `completed_at`, summary or error, NOTIFY) and counts it; true when the row changed. */
export async function endEvalRun(db: Db, runId: string, end: EvalRunEnd): Promise<boolean> {
  const ended = await recordEvalRunEnd(db, runId, end);
  if (ended) evalRunsEnded.inc({ status: 'stopped' in end ? end.stopped.status : end.status });
  return ended;
}

/** Ends a flow run; the row as it ended, or undefined when a stopped run had already ended. */
export async function endFlowRun(
  db: Db,
  runId: string,
  end: Exclude<FlowRunEnd, { stopped: unknown }>,
): Promise<FlowRun>;
export async function endFlowRun(db: Db, runId: string, end: FlowRunEnd): Promise<FlowRun | undefined>;
export async function endFlowRun(db: Db, runId: string, end: FlowRunEnd): Promise<FlowRun | undefined> {
  return recordFlowRunEnd(db, runId, end);
}

/** Ends an agent run: the conversation id of a completed run, null for another end, undefined if it had ended. */
export async function endAgentRun(
  db: Db,
  runId: string,
  end: Extract<AgentRunEnd, { status: 'completed' }>,
): Promise<string>;
export async function endAgentRun(db: Db, runId: string, end: AgentRunEnd): Promise<string | null | undefined>;
export async function endAgentRun(db: Db, runId: string, end: AgentRunEnd): Promise<string | null | undefined> {
  return recordAgentRunEnd(db, runId, end);
}
