import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { KEPT_TABLES } from '../../db/workspace-purge.repository';

/** The parents whose ids a workspace's child rows are found by (captured before a deletion removes the parents). */
export interface WorkspaceParents {
  runs: string[];
  sets: string[];
  agents: string[];
  servers: string[];
}

// Written from the schema by hand, independently of the purge's own list: a table's rows of one workspace.
const CHILDREN: Record<string, (p: WorkspaceParents) => ReturnType<typeof sql<boolean>>> = {
  case_judge_calls: (p) => sql<boolean>`run_id = ANY(${p.runs}::uuid[])`,
  case_results: (p) => sql<boolean>`run_id = ANY(${p.runs}::uuid[])`,
  eval_cases: (p) => sql<boolean>`eval_set_id = ANY(${p.sets}::uuid[])`,
  agent_versions: (p) => sql<boolean>`agent_id = ANY(${p.agents}::uuid[])`,
  agent_mcp_servers: (p) =>
    sql<boolean>`agent_id = ANY(${p.agents}::uuid[]) OR mcp_server_id = ANY(${p.servers}::uuid[])`,
  mcp_tools: (p) => sql<boolean>`server_id = ANY(${p.servers}::uuid[])`,
};

/** The ids of a workspace's runs, sets, agents and MCP servers now. */
export async function workspaceParents(db: Db, workspaceId: string): Promise<WorkspaceParents> {
  const ids = async (table: 'eval_runs' | 'eval_sets' | 'agents' | 'mcp_servers'): Promise<string[]> =>
    (await db.selectFrom(table).select('id').where('workspace_id', '=', workspaceId).execute()).map((r) => r.id);
  return {
    runs: await ids('eval_runs'),
    sets: await ids('eval_sets'),
    agents: await ids('agents'),
    servers: await ids('mcp_servers'),
  };
}

/** Every table of the schema but the kept ones. */
export async function schemaTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely_%'
    ORDER BY table_name`.execute(db);
  return rows.map((r) => r.table_name).filter((t) => !KEPT_TABLES.includes(t));
}

/** Tables that reference `table` by a foreign key. */
export async function referencingTables(db: Db, table: string): Promise<string[]> {
  const { rows } = await sql<{ child: string }>`
    SELECT DISTINCT conrelid::regclass::text AS child FROM pg_constraint
    WHERE contype = 'f' AND confrelid = ${table}::regclass`.execute(db);
  return rows.map((r) => r.child);
}

/** The count, per table, of a workspace's rows (direct by workspace_id / id, children by the captured parents). */
export async function workspaceRowCounts(
  db: Db,
  workspaceId: string,
  parents: WorkspaceParents,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await schemaTables(db)) {
    const { rows: columns } = await sql<{ column_name: string }>`
      SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table}`.execute(db);
    const names = columns.map((c) => c.column_name);
    const direct = names.includes('workspace_id')
      ? sql<boolean>`workspace_id = ${workspaceId}::uuid`
      : names.includes('default_workspace_id')
        ? sql<boolean>`default_workspace_id = ${workspaceId}::uuid`
        : table === 'workspaces'
          ? sql<boolean>`id = ${workspaceId}::uuid`
          : sql<boolean>`false`;
    const child = CHILDREN[table]?.(parents) ?? sql<boolean>`false`;
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM ${sql.table(table)} WHERE (${direct}) OR (${child})`.execute(db);
    counts[table] = Number(rows[0].n);
  }
  return counts;
}

/** Tables a workspace's rows can live in: workspace-keyed ones and the children the count above knows. */
export function countedChildTables(): string[] {
  return Object.keys(CHILDREN);
}
