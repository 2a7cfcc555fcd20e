import { sql } from 'kysely';
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

/** Marks a run running (idempotent: the first start time is kept). */
export async function markFlowRunStarted(db: Db, id: string): Promise<void> {
  await db
    .updateTable('flow_runs')
    .set({ status: 'running', started_at: sql<Date>`coalesce(started_at, now())` })
    .where('id', '=', id)
    .execute();
}

/** Records one node's result under its id; a retried write replaces the same key. */
export async function recordFlowNodeResult(db: Db, id: string, nodeId: string, result: FlowNodeResult): Promise<void> {
  await db
    .updateTable('flow_runs')
    .set({
      node_results: sql<string>`node_results || jsonb_build_object(${nodeId}::text, ${JSON.stringify(result)}::jsonb)`,
    })
    .where('id', '=', id)
    .execute();
}

/** Ends a run as completed or failed. */
export async function finishFlowRun(
  db: Db,
  id: string,
  status: 'completed' | 'failed',
  error: string | null,
): Promise<FlowRun> {
  return db
    .updateTable('flow_runs')
    .set({ status, error, finished_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
