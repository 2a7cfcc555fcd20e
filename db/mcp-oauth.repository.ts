import { sql } from 'kysely';
import type { Db } from './database';
import { freshStatus } from './mcp-server.repository';
import type { McpOauthState } from './tables/mcp.table';

/** Records a pending authorization under its state's hash (the state itself is never stored). */
export async function insertOauthState(
  db: Db,
  row: { stateHash: string; workspaceId: string; serverId: string; userId: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('mcp_oauth_states')
    .values({
      state_hash: row.stateHash,
      workspace_id: row.workspaceId,
      server_id: row.serverId,
      user_id: row.userId,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** Why a callback's state is refused, or the authorization it names (marked used in the same statement). */
export type ConsumedState = { ok: true; state: McpOauthState } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/** Uses a state once: the first callback marks it used, a replay finds it used; an expired one is refused. */
export async function consumeOauthState(db: Db, stateHash: string): Promise<ConsumedState> {
  const used = await db
    .updateTable('mcp_oauth_states')
    .set({ used_at: sql<Date>`now()` })
    .where('state_hash', '=', stateHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
  if (used) return { ok: true, state: used };
  const row = await db
    .selectFrom('mcp_oauth_states')
    .selectAll()
    .where('state_hash', '=', stateHash)
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'unknown' };
  return { ok: false, reason: row.used_at ? 'used' : 'expired' };
}

/** Drops a server's pending authorizations that can no longer be used (expired or used), keeping the table small. */
export async function pruneOauthStates(db: Db, serverId: string): Promise<void> {
  await db
    .deleteFrom('mcp_oauth_states')
    .where('server_id', '=', serverId)
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', sql<Date>`now()`)]))
    .execute();
}

/**
 * A person must authorize the server (again): status `authorization_required` with the reason as its last error and,
 * after a 403 `insufficient_scope`, the scope the server asked for (`stepUpScope`; null otherwise).
 */
export async function markAuthorizationRequired(
  db: Db,
  serverId: string,
  message: string,
  stepUpScope: string | null = null,
): Promise<void> {
  await markUnusable(db, serverId, 'authorization_required', message, stepUpScope);
}

/**
 * Authorized: the server is `pending` until its next sync connects it. New tokens are a credential change: the
 * gateway's upstream sessions opened with the old ones are closed (`config_changed_at`).
 */
export async function markAuthorized(db: Db, serverId: string): Promise<void> {
  await db
    .updateTable('mcp_servers')
    .set({ ...freshStatus('pending'), config_changed_at: sql<Date>`now()` })
    .where('id', '=', serverId)
    .execute();
}

/**
 * A client-credentials server's step-up that no token answers (the scope refused, or still insufficient): status
 * `error` with the reason, showing the scope it asked for (no person could end `authorization_required`).
 */
export async function markStepUpRefused(db: Db, serverId: string, message: string, stepUpScope: string): Promise<void> {
  await markUnusable(db, serverId, 'error', message, stepUpScope);
}

async function markUnusable(
  db: Db,
  serverId: string,
  status: 'authorization_required' | 'error',
  message: string,
  stepUpScope: string | null,
): Promise<void> {
  await db
    .updateTable('mcp_servers')
    .set({
      status,
      last_error: message,
      oauth_step_up_scope: stepUpScope,
      health_restore_status: null,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', serverId)
    .execute();
}

/** The server's token was replaced outside a sync: the gateway's upstream sessions opened with the old one close. */
export async function markTokenReplaced(db: Db, serverId: string): Promise<void> {
  await db
    .updateTable('mcp_servers')
    .set({ config_changed_at: sql<Date>`now()` })
    .where('id', '=', serverId)
    .execute();
}
