import { sql } from 'kysely';
import { LIMITS } from '../domain/limits';
import { nextHealthState, type McpHealthState } from '../domain/mcp/mcp-health';
import type { Db } from './database';
import type { McpHealthCheck } from './tables/mcp.table';

/** One check's outcome, as the connection test answers it. */
export type McpHealthOutcome = { status: 'connected'; latency_ms: number } | { status: 'error'; message: string };

/** A recorded check: the server's health before and after it (undefined when the server is gone). */
export interface RecordedHealthCheck {
  before: McpHealthState;
  after: McpHealthState;
}

/**
 * Stores a check, prunes the server's checks past `mcpHealthChecksKept` and moves its status by the streak, under the
 * server's row lock (two checks of one server never interleave). Undefined when the server no longer exists.
 */
export async function recordHealthCheck(
  db: Db,
  serverId: string,
  outcome: McpHealthOutcome,
  failuresToError: number,
): Promise<RecordedHealthCheck | undefined> {
  return db.transaction().execute(async (trx) => {
    const server = await trx
      .selectFrom('mcp_servers')
      .select(['status', 'health_failures', 'health_restore_status'])
      .where('id', '=', serverId)
      .forUpdate()
      .executeTakeFirst();
    if (!server) return undefined;
    await trx
      .insertInto('mcp_health_checks')
      .values({
        server_id: serverId,
        status: outcome.status,
        latency_ms: outcome.status === 'connected' ? outcome.latency_ms : null,
        message: outcome.status === 'error' ? outcome.message : null,
      })
      .execute();
    await trx
      .deleteFrom('mcp_health_checks')
      .where('server_id', '=', serverId)
      .where(
        'id',
        'not in',
        trx
          .selectFrom('mcp_health_checks')
          .select('id')
          .where('server_id', '=', serverId)
          .orderBy('checked_at', 'desc')
          .orderBy('id', 'desc')
          .limit(LIMITS.mcpHealthChecksKept),
      )
      .execute();
    const before = {
      status: server.status,
      failures: server.health_failures,
      restoreStatus: server.health_restore_status,
    };
    const after = nextHealthState(before, outcome.status === 'connected', failuresToError);
    const lastError = outcome.status === 'error' ? outcome.message : null;
    await trx
      .updateTable('mcp_servers')
      .set({
        status: after.status,
        health_failures: after.failures,
        health_restore_status: after.restoreStatus,
        updated_at: sql<Date>`now()`,
      })
      // The message is the server's last error only while the checks hold it in `error`.
      .$if(after.status !== before.status, (query) => query.set({ last_error: lastError }))
      .where('id', '=', serverId)
      .execute();
    return { before, after };
  });
}

/** A server's kept checks, newest first (at most `mcpHealthChecksKept`). */
export async function listHealthChecks(db: Db, serverId: string): Promise<McpHealthCheck[]> {
  return db
    .selectFrom('mcp_health_checks')
    .selectAll()
    .where('server_id', '=', serverId)
    .orderBy('checked_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LIMITS.mcpHealthChecksKept)
    .execute();
}

/** A page of a workspace's server ids after `after` (by id), for removing their schedules. */
export async function pageWorkspaceServerIds(
  db: Db,
  workspaceId: string,
  after: string | undefined,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('mcp_servers')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .$if(after !== undefined, (query) => query.where('id', '>', after as string))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
