import { sql } from 'kysely';
import type { Db } from './database';
import type { Provider } from '../domain/model-provider';
import type { Integration } from './tables/workspace-settings.table';

/** The credential id under which a provider integration's key is kept in the vault. */
export function integrationCredentialId(provider: Provider): string {
  return `integration:${provider}`;
}

/**
 * Holds a workspace's integration with a provider, existing or not yet, until the transaction ends; false at once
 * when another transaction holds it (no pooled connection waits on a lock).
 */
export async function tryLockIntegration(trx: Db, workspaceId: string, provider: Provider): Promise<boolean> {
  const key = `${workspaceId}/${integrationCredentialId(provider)}`;
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${key})) AS locked`.execute(
    trx,
  );
  return rows[0]?.locked === true;
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
export async function listIntegrations(db: Db, workspaceId: string): Promise<Integration[]> {
  return db
    .selectFrom('integrations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('provider')
    .execute();
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
