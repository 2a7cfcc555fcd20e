import { sql } from 'kysely';
import type { Db } from './database';

/** The kinds of run rows a workflow keeps up to date. */
export type RunKind = 'eval' | 'flow' | 'agent';

/** A run row that is not finished yet: its id, its workflow key and eval run (agent runs) and its age. */
export interface UnfinishedRun {
  id: string;
  key: string | null;
  eval_run_id?: string | null;
  created_at: Date;
}

const TABLES: Record<RunKind, string> = { eval: 'eval_runs', flow: 'flow_runs', agent: 'agent_runs' };
/** The lowest uuid: the cursor of a sweep that starts from the beginning. */
export const FIRST_RUN_CURSOR = '00000000-0000-0000-0000-000000000000';

/**
 * One page (by id, after `after`) of a kind's queued or running rows; the partial index keeps this cheap. Given a
 * workspace, only its runs that have a workflow of their own: a live case's sandbox agent run goes with its eval run.
 */
export async function listUnfinishedRuns(
  db: Db,
  kind: RunKind,
  after: string,
  limit: number,
  workspaceId?: string,
): Promise<UnfinishedRun[]> {
  const key = kind === 'agent' ? sql`key, eval_run_id` : sql`null AS key`;
  const children = kind === 'agent' ? sql`AND eval_run_id IS NULL` : sql``;
  const scope = workspaceId === undefined ? sql`` : sql`AND workspace_id = ${workspaceId}::uuid ${children}`;
  const { rows } = await sql<UnfinishedRun>`
    SELECT id, ${key}, created_at FROM ${sql.table(TABLES[kind])}
    WHERE status IN ('queued', 'running') AND id > ${after}::uuid ${scope}
    ORDER BY id LIMIT ${limit}`.execute(db);
  return rows;
}
