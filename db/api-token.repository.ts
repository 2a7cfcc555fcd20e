import { sql, type RawBuilder } from 'kysely';
import type { Db } from './database';
import { activeToken, findActiveServiceTokenIds } from './service-token.repository';
import { NEWEST_FIRST, keysetPage, type Page, type PageParams } from './keyset-page';
import type { ApiToken } from './tables/tenancy.table';

/** Stores a token hash. */
export async function insertApiToken(
  db: Db,
  token: {
    user_id: string;
    default_workspace_id: string;
    name: string;
    token_hash: string;
    prefix: string;
    expires_at: Date | null;
    scope_workspace_id?: string | null;
    minted_by?: string | null;
  },
): Promise<{ id: string }> {
  return db.insertInto('api_tokens').values(token).returning(['id']).executeTakeFirstOrThrow();
}

/** Looks a token up by its hash. */
export async function findApiTokenByHash(db: Db, tokenHash: string): Promise<ApiToken | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

// Which of a user's tokens a caller reaches: every one (`scope` undefined: an unscoped token, or the operator's command
// line), or only those scoped to the workspace `scope` (a scoped token never reaches another workspace's).
const inScope = (scope: string | undefined): RawBuilder<boolean> =>
  scope === undefined ? sql<boolean>`TRUE` : sql<boolean>`scope_workspace_id = ${scope}::uuid`;

/**
 * Revokes a token of a user (idempotent: an earlier revocation keeps its time), and every token minted with it, so a
 * scoped token's descendants outlive it no more than its expiry; false when the user has no such token (of `scope`,
 * when given: a scoped caller reaches its own workspace's tokens only).
 */
export async function revokeApiToken(db: Db, userId: string, tokenId: string, scope?: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE lineage(id) AS (
      SELECT id FROM api_tokens
      WHERE id = ${tokenId}::uuid AND user_id = ${userId}::uuid AND ${inScope(scope)}
      UNION SELECT child.id FROM api_tokens AS child JOIN lineage ON child.minted_by = lineage.id
      WHERE ${inScope(scope)})
    UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now())
    WHERE id IN (SELECT id FROM lineage) RETURNING id`.execute(db);
  return rows.length > 0;
}

/** When a personal token expires (null: never, or no such token). */
export async function findApiTokenExpiry(db: Db, tokenId: string): Promise<Date | null> {
  const row = await db.selectFrom('api_tokens').select('expires_at').where('id', '=', tokenId).executeTakeFirst();
  return row?.expires_at ?? null;
}

/** Whether a user holds a usable personal token that is not scoped to one workspace. */
export async function hasUnscopedToken(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .where('scope_workspace_id', 'is', null)
    .where(activeToken)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Stores a personal token unless its user already holds `max` active ones of the same scope (neither revoked nor
 * expired; the unscoped ones are a scope of their own), so tokens scoped to one workspace can never use up the
 * person's room elsewhere. The user row is locked so two concurrent creations cannot both take the last place: call
 * inside a transaction.
 */
export async function insertApiTokenWithinLimit(
  trx: Db,
  token: Parameters<typeof insertApiToken>[1],
  max: number,
): Promise<{ inserted: { id: string; created_at: Date } } | { full: number }> {
  await trx.selectFrom('users').select('id').where('id', '=', token.user_id).forUpdate().execute();
  const { count } = await trx
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', token.user_id)
    .where(sql<boolean>`scope_workspace_id IS NOT DISTINCT FROM ${token.scope_workspace_id ?? null}::uuid`)
    .where(activeToken)
    .executeTakeFirstOrThrow();
  if (Number(count) >= max) return { full: Number(count) };
  const inserted = await trx
    .insertInto('api_tokens')
    .values(token)
    .returning(['id', sql<Date>`created_at`.as('created_at')])
    .executeTakeFirstOrThrow();
  return { inserted };
}

/**
 * Records that a token was used now, unless that was recorded within the last minute (by any api process): at most
 * one write a minute per token however busy it is.
 */
export async function touchTokenLastUsed(
  db: Db,
  table: 'api_tokens' | 'service_tokens',
  tokenId: string,
): Promise<void> {
  await db
    .updateTable(table)
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', tokenId)
    .where(sql<boolean>`(last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`)
    .execute();
}

/** What `assay token list` shows of a token: never its hash or secret. */
export interface ApiTokenListing {
  id: string;
  name: string;
  prefix: string;
  default_workspace_id: string;
  /** The user's role in that workspace now (null when no longer a member). */
  role: string | null;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** A user's tokens (of `scope` only, when given), newest first, revoked and expired ones included. */
export async function listUserApiTokens(
  db: Db,
  userId: string,
  page: PageParams,
  scope?: string,
): Promise<Page<ApiTokenListing>> {
  const query = db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'prefix', 'default_workspace_id', 'expires_at', 'revoked_at', 'last_used_at'])
    // The table types created_at as a generated, never-written column; it reads back as a Date.
    .select(sql<Date>`created_at`.as('created_at'))
    .select((eb) =>
      eb
        .selectFrom('memberships')
        .select('role')
        .whereRef('memberships.workspace_id', '=', 'api_tokens.default_workspace_id')
        .whereRef('memberships.user_id', '=', 'api_tokens.user_id')
        .as('role'),
    )
    .where('user_id', '=', userId)
    .where(inScope(scope));
  return keysetPage(query, NEWEST_FIRST, page);
}

/**
 * Of `tokenIds` (personal and service tokens alike), the ones still usable: neither revoked nor expired by this
 * process's clock, as `authenticate`, and a service token's workspace not deleted.
 */
export async function findActiveTokenIds(db: Db, tokenIds: readonly string[]): Promise<Set<string>> {
  if (tokenIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('api_tokens')
    .select('id')
    // One array parameter however many sockets are open (an IN list would take one parameter per id).
    .where(sql<boolean>`id = ANY(${[...tokenIds]}::uuid[])`)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
    .execute();
  return new Set([...rows.map((row) => row.id), ...(await findActiveServiceTokenIds(db, tokenIds))]);
}
