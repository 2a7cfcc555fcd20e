import { sql, type RawBuilder } from 'kysely';
import type { Db } from './database';

/** Never purged: audit entries outlive the workspace they describe. */
export const KEPT_TABLES: readonly string[] = ['audit_events'];

/** One table of a workspace's rows and how to find them from the workspace id (`rehome`: moved, not deleted). */
interface PurgeStep {
  table: string;
  rows: (workspaceId: string) => RawBuilder<boolean>;
  rehome?: (workspaceId: string) => RawBuilder<unknown>;
}

// The oldest other live workspace of a token's user: where an unscoped token defaulting to a deleted one moves.
const otherWorkspace = (workspaceId: string): RawBuilder<unknown> => sql`(
  SELECT m.workspace_id FROM memberships AS m JOIN workspaces AS w ON w.id = m.workspace_id
  WHERE m.user_id = api_tokens.user_id AND w.deleted_at IS NULL AND m.workspace_id <> ${workspaceId}::uuid
  ORDER BY m.created_at, m.workspace_id LIMIT 1)`;

const owned =
  (column = 'workspace_id') =>
  (workspaceId: string): RawBuilder<boolean> =>
    sql<boolean>`${sql.ref(column)} = ${workspaceId}::uuid`;
const under =
  (column: string, parent: string) =>
  (workspaceId: string): RawBuilder<boolean> =>
    sql<boolean>`${sql.ref(column)} IN (SELECT id FROM ${sql.table(parent)} WHERE workspace_id = ${workspaceId}::uuid)`;

/**
 * Every table holding a workspace's rows, children before parents, so no delete cascades (a cascade would be a
 * statement of unbounded size) and no `ON DELETE SET NULL` rewrites another row. Tables keyed by `workspace_id` that
 * are not listed (added later) are found at run time, before memberships and tokens; test/integration/workspaces.test.ts
 * checks that every foreign key into a listed table comes from a listed table.
 */
export const PURGE_STEPS: readonly PurgeStep[] = [
  { table: 'case_judge_calls', rows: under('run_id', 'eval_runs') },
  { table: 'case_slots', rows: owned() },
  { table: 'case_results', rows: under('run_id', 'eval_runs') },
  { table: 'outbound_messages', rows: owned() },
  { table: 'crm_contacts', rows: owned() },
  { table: 'agent_runs', rows: owned() },
  // A retry names the run it retries: runs that no other run retries go first, so each page is leaves only.
  {
    table: 'eval_runs',
    rows: (workspaceId) =>
      sql<boolean>`workspace_id = ${workspaceId}::uuid
        AND NOT EXISTS (SELECT 1 FROM eval_runs AS retry WHERE retry.retry_of = eval_runs.id)`,
  },
  { table: 'eval_cases', rows: under('eval_set_id', 'eval_sets') },
  { table: 'cassette_entries', rows: under('eval_set_id', 'eval_sets') },
  { table: 'conversations', rows: owned() },
  { table: 'eval_sets', rows: owned() },
  { table: 'agent_mcp_servers', rows: under('agent_id', 'agents') },
  { table: 'agent_mcp_servers', rows: under('mcp_server_id', 'mcp_servers') },
  { table: 'mcp_tools', rows: under('server_id', 'mcp_servers') },
  { table: 'mcp_health_checks', rows: under('server_id', 'mcp_servers') },
  { table: 'mcp_oauth_states', rows: owned() },
  { table: 'mcp_servers', rows: owned() },
  { table: 'mcp_catalog_entries', rows: owned() },
  { table: 'flow_runs', rows: owned() },
  { table: 'flows', rows: owned() },
  { table: 'agent_versions', rows: under('agent_id', 'agents') },
  { table: 'agents', rows: owned() },
  { table: 'integrations', rows: owned() },
  { table: 'workspace_settings', rows: owned() },
  { table: 'credentials', rows: owned() },
];

/** Emptied last (after any table found at run time): until then, the members still see the workspace is theirs. */
const LAST_STEPS: readonly PurgeStep[] = [
  { table: 'memberships', rows: owned() },
  // Tokens of people who belong elsewhere keep working there; then the rest go.
  {
    table: 'api_tokens',
    rows: (workspaceId) =>
      sql<boolean>`default_workspace_id = ${workspaceId}::uuid AND scope_workspace_id IS NULL
        AND ${otherWorkspace(workspaceId)} IS NOT NULL`,
    rehome: otherWorkspace,
  },
  { table: 'api_tokens', rows: owned('default_workspace_id') },
  { table: 'workspaces', rows: owned('id') },
];

// Tables with a workspace_id column that the list above does not name (a newer feature's table).
async function discoveredSteps(db: Db): Promise<PurgeStep[]> {
  const named = new Set([...PURGE_STEPS, ...LAST_STEPS].map((step) => step.table).concat(KEPT_TABLES));
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name = 'workspace_id'
    ORDER BY table_name`.execute(db);
  return rows.filter((row) => !named.has(row.table_name)).map((row) => ({ table: row.table_name, rows: owned() }));
}

/** Every step of a workspace's purge, in order. */
export async function purgeSteps(db: Db): Promise<PurgeStep[]> {
  return [...PURGE_STEPS, ...(await discoveredSteps(db)), ...LAST_STEPS];
}

// One statement deletes (or moves) at most `limit` rows (by ctid, so tables without a single-column key work alike).
async function deletePage(db: Db, step: PurgeStep, workspaceId: string, limit: number): Promise<number> {
  const table = sql.table(step.table);
  const result = await sql`
    ${step.rehome ? sql`UPDATE ${table} SET default_workspace_id = ${step.rehome(workspaceId)}` : sql`DELETE FROM ${table}`}
    WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM ${table} WHERE ${step.rows(workspaceId)} LIMIT ${limit}))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Deletes a deleted workspace's rows in pages of `pageSize`, walking the steps in order, and stops once it has deleted
 * `rows` or more; answers how many it deleted and whether the workspace is gone. Idempotent: a retry, or the next call,
 * finds the emptied tables empty.
 */
export async function purgeWorkspaceRows(
  db: Db,
  workspaceId: string,
  budget: { rows: number; pageSize: number },
): Promise<{ deleted: number; done: boolean }> {
  let deleted = 0;
  for (const step of await purgeSteps(db)) {
    // Until a page finds nothing: a step may delete short pages before it is empty (eval runs, leaves first).
    for (let count = -1; count !== 0;) {
      if (deleted >= budget.rows) return { deleted, done: false };
      count = await deletePage(db, step, workspaceId, budget.pageSize);
      deleted += count;
    }
  }
  return { deleted, done: true };
}

/** Whether the workspace exists and is not marked deleted (a purge refuses to touch it then). */
export async function isLiveWorkspace(db: Db, workspaceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of `workspaceIds` exist and are not marked deleted. */
export async function liveWorkspaceIds(db: Db, workspaceIds: readonly string[]): Promise<string[]> {
  if (workspaceIds.length === 0) return [];
  const rows = await db
    .selectFrom('workspaces')
    .select('id')
    .where('id', 'in', [...workspaceIds])
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((row) => row.id);
}
