import { sql } from 'kysely';
import type { Db } from './database';
import { keysetPage, type Page, type PageParams } from './keyset-page';
import type { Provider } from '../domain/agent/model-provider';
import type { Integration } from './tables/workspace-settings.table';

/** The credential id under which a provider integration's key is kept in the vault. */
export function integrationCredentialId(provider: Provider): string {
  return `integration:${provider}`;
}

const lockKey = (workspaceId: string, provider: Provider): string =>
  `${workspaceId}/${integrationCredentialId(provider)}`;

/**
 * Holds a workspace's integration with a provider, existing or not yet, until the transaction ends (a writer);
 * false at once when anyone holds it, so no api connection waits on a lock.
 */
export async function tryLockIntegration(trx: Db, workspaceId: string, provider: Provider): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`SELECT pg_try_advisory_xact_lock(hashtext(${lockKey(workspaceId, provider)})) AS locked`.execute(trx);
  return rows[0]?.locked === true;
}

/** Shares the integration's lock until the transaction ends (a reader), waiting for a writer at most `lock_timeout`. */
export async function shareIntegrationLock(trx: Db, workspaceId: string, provider: Provider): Promise<void> {
  await sql`SET LOCAL lock_timeout = '2s'`.execute(trx);
  await sql`SELECT pg_advisory_xact_lock_shared(hashtext(${lockKey(workspaceId, provider)}))`.execute(trx);
}

/** Records (or replaces) a provider integration; the key itself must already be in the vault. */
export async function saveIntegration(
  db: Db,
  workspaceId: string,
  provider: Provider,
  fields: { base_url: string | null; key_hint: string },
): Promise<Integration> {
  const credential_id = integrationCredentialId(provider);
  return db
    .insertInto('integrations')
    .values({ workspace_id: workspaceId, provider, credential_id, ...fields })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'provider']).doUpdateSet({ ...fields, credential_id, updated_at: new Date() }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A workspace's integration with a provider. */
export async function findIntegration(
  db: Db,
  workspaceId: string,
  provider: Provider,
): Promise<Integration | undefined> {
  return db
    .selectFrom('integrations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('provider', '=', provider)
    .executeTakeFirst();
}

/** A workspace's integrations by provider. */
export async function listIntegrations(db: Db, workspaceId: string, page: PageParams): Promise<Page<Integration>> {
  const query = db.selectFrom('integrations').selectAll().where('workspace_id', '=', workspaceId);
  return keysetPage(query, { keys: [{ ref: 'provider', kind: 'text' }], direction: 'asc' }, page);
}

/** Removes an integration record; returns whether one existed. */
export async function deleteIntegration(db: Db, workspaceId: string, provider: Provider): Promise<boolean> {
  const result = await db
    .deleteFrom('integrations')
    .where('workspace_id', '=', workspaceId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
