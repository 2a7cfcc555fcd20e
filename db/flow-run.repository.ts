import { sql } from 'kysely';
import type { Settlement } from '../domain/eval/run-settlement';
import type { Db } from './database';
import type { FlowNodeResult, FlowRun } from './tables/flow.table';

/** Inserts a run in `queued`. */
export async function insertFlowRun(
  db: Db,
  workspaceId: string,
  flowId: string,
  variables: Record<string, unknown>,
): Promise<FlowRun> {
  return db
    .insertInto('flow_runs')
    .values({ workspace_id: workspaceId, flow_id: flowId, status: 'queued', variables: JSON.stringify(variables) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A workspace's run by id, else undefined. */
export async function findFlowRun(db: Db, workspaceId: string, id: string): Promise<FlowRun | undefined> {
  return db
    .selectFrom('flow_runs')
    .selectAll()
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** Marks a queued run running (idempotent: the first start time is kept; an ended run stays ended). */
export async function markFlowRunStarted(db: Db, id: string): Promise<void> {
  await db
    .updateTable('flow_runs')
    .set({ status: 'running', started_at: sql<Date>`coalesce(started_at, now())` })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/**
 * Records one node's result under its id while the run is running (a node that outlived its run's end changes
 * nothing); a retried write replaces the same key. With `keepExisting` a result already recorded wins (the workflow's
 * note for a node whose activity timed out never hides what the node recorded).
 */
export async function recordFlowNodeResult(
  db: Db,
  id: string,
  nodeId: string,
  result: FlowNodeResult,
  keepExisting = false,
): Promise<void> {
  const entry = sql<string>`jsonb_build_object(${nodeId}::text, ${JSON.stringify(result)}::jsonb)`;
  await db
    .updateTable('flow_runs')
    .set({ node_results: keepExisting ? sql<string>`${entry} || node_results` : sql<string>`node_results || ${entry}` })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

/** Ends a run as completed, failed or cancelled. */
export async function finishFlowRun(
  db: Db,
  id: string,
  status: 'completed' | 'failed' | 'cancelled',
  error: string | null,
): Promise<FlowRun> {
  return db
    .updateTable('flow_runs')
    .set({ status, error, finished_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Ends a run that is still queued or running as cancelled or failed; true when the row changed. */
export async function settleFlowRun(db: Db, id: string, settlement: Settlement): Promise<boolean> {
  const row = await db
    .updateTable('flow_runs')
    .set({ ...settlement, finished_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
