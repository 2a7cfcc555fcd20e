import { sql } from 'kysely';
import type { Db } from './database';
import { NEWEST_FIRST, keysetPage, type Page, type PageParams } from './keyset-page';
import type { ServiceToken } from './tables/tenancy.table';

/** What a workspace's list shows of a service token: never its hash. */
export interface ServiceTokenListing {
  id: string;
  workspace_id: string;
  name: string;
  role: string;
  prefix: string;
  created_by: string | null;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

type Full = { full: number };

const LISTED = [
  'id',
  'workspace_id',
  'name',
  'role',
  'prefix',
  'created_by',
  'expires_at',
  'revoked_at',
  'last_used_at',
] as const;

/** A token (of either table) is active until revoked or past its expiry, by the database clock. */
export const activeToken = sql<boolean>`revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`;

/**
 * Stores a service token unless its workspace already holds `max` active ones. The workspace row is locked so two
 * concurrent creations cannot both take the last place.
 */
export async function insertServiceTokenWithinLimit(
  db: Db,
  token: Pick<ServiceToken, 'workspace_id' | 'name' | 'role' | 'token_hash' | 'prefix' | 'created_by' | 'expires_at'>,
  max: number,
): Promise<{ inserted: ServiceTokenListing } | Full> {
  return db.transaction().execute(async (trx): Promise<{ inserted: ServiceTokenListing } | Full> => {
    await trx.selectFrom('workspaces').select('id').where('id', '=', token.workspace_id).forUpdate().execute();
    const { count } = await trx
      .selectFrom('service_tokens')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('workspace_id', '=', token.workspace_id)
      .where(activeToken)
      .executeTakeFirstOrThrow();
    if (Number(count) >= max) return { full: Number(count) };
    const inserted = await trx
      .insertInto('service_tokens')
      .values(token)
      .returning([...LISTED, sql<Date>`created_at`.as('created_at')])
      .executeTakeFirstOrThrow();
    return { inserted };
  });
}

/** The service token with this hash, unless its workspace is deleted. */
export async function findServiceTokenByHash(db: Db, tokenHash: string): Promise<ServiceToken | undefined> {
  return db
    .selectFrom('service_tokens')
    .innerJoin('workspaces', 'workspaces.id', 'service_tokens.workspace_id')
    .selectAll('service_tokens')
    .where('service_tokens.token_hash', '=', tokenHash)
    .where('workspaces.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A workspace's service tokens, newest first, revoked and expired ones included. */
export async function listServiceTokens(
  db: Db,
  workspaceId: string,
  page: PageParams,
): Promise<Page<ServiceTokenListing>> {
  const query = db
    .selectFrom('service_tokens')
    .select(LISTED)
    // The table types created_at as a generated, never-written column; it reads back as a Date.
    .select(sql<Date>`created_at`.as('created_at'))
    .where('workspace_id', '=', workspaceId);
  return keysetPage(query, NEWEST_FIRST, page);
}

/** Revokes a service token of the workspace (idempotent); false when the workspace has no such token. */
export async function revokeServiceToken(db: Db, workspaceId: string, tokenId: string): Promise<boolean> {
  const result = await db
    .updateTable('service_tokens')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', tokenId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Of `tokenIds`, the service tokens still usable (neither revoked nor expired, workspace not deleted). */
export async function findActiveServiceTokenIds(db: Db, tokenIds: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('service_tokens')
    .innerJoin('workspaces', 'workspaces.id', 'service_tokens.workspace_id')
    .select('service_tokens.id')
    .where(sql<boolean>`service_tokens.id = ANY(${[...tokenIds]}::uuid[])`)
    .where('service_tokens.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([eb('service_tokens.expires_at', 'is', null), eb('service_tokens.expires_at', '>', new Date())]),
    )
    .where('workspaces.deleted_at', 'is', null)
    .execute();
  return rows.map((row) => row.id);
}
