import { sql } from 'kysely';
import { definitionOf } from '../domain/mcp/tool-approval';
import type { Db } from './database';
import type { EvalRun } from './tables/eval-run.table';
import type { EvalSet } from './tables/eval-set.table';
import type { McpTool } from './tables/mcp.table';

/**
 * Approves a tool at its current definition when that still hashes to `hash` (what the approver reviewed); undefined
 * when a sync moved it since. Approving an approved tool writes the same values again.
 */
export async function approveTool(db: Db, tool: McpTool, hash: string): Promise<McpTool | undefined> {
  return db
    .updateTable('mcp_tools')
    .set({
      status: 'approved',
      approved_hash: hash,
      approved_definition: JSON.stringify(definitionOf(tool)),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', tool.id)
    .where('hash', '=', hash)
    .returningAll()
    .executeTakeFirst();
}

/** An eval set of an agent linked (enabled) to the server: what an approval evaluation runs. */
export type ApprovalTarget = EvalSet & { agent_name: string };

/** The eval sets of the agents linked to a server (enabled links), at most `max`, by agent then set name. */
export async function listApprovalTargets(db: Db, serverId: string, max: number): Promise<ApprovalTarget[]> {
  return db
    .selectFrom('agent_mcp_servers as l')
    .innerJoin('agents as a', 'a.id', 'l.agent_id')
    .innerJoin('eval_sets as s', 's.agent_id', 'a.id')
    .selectAll('s')
    .select('a.name as agent_name')
    .where('l.mcp_server_id', '=', serverId)
    .where('l.enabled', '=', true)
    .orderBy('a.name')
    .orderBy('s.name')
    .limit(max)
    .execute();
}

/** The newest runs (at most `max`) that evaluated a tool's candidate definition carrying `tag`. */
export async function listCandidateRuns(db: Db, toolId: string, tag: string, max: number): Promise<EvalRun[]> {
  return db
    .selectFrom('eval_runs')
    .selectAll()
    .where('candidate_tool_id', '=', toolId)
    .where('tags', '@>', sql<string[]>`array[${tag}]::text[]`)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(max)
    .execute();
}
