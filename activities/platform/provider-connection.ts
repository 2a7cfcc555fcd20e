import { ApplicationFailure } from '@temporalio/common';
import { findIntegration, shareIntegrationLock } from '../../db/integration.repository';
import type { Integration } from '../../db/tables/workspace-settings.table';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { PROVIDER_BASE_URLS, type Provider } from '../../domain/agent/model-provider';
import { ProviderCallError } from '../../lib/outbound/llm/provider-client';
import type { ActivityDeps } from './activity-deps';

/** How to reach a provider with the workspace's own key (read inside the activity, never passed around). */
export interface ProviderConnection {
  baseUrl: string;
  apiKey: string;
  /** The integration row's version when the key was read: see {@link integrationVersion}. */
  version: string;
}

/** What changes whenever the integration's key or base_url does (every update sets updated_at); null when gone. */
export async function integrationVersion(
  deps: ActivityDeps,
  workspaceId: string,
  provider: Provider,
): Promise<string | null> {
  const row = await findIntegration(deps.db, workspaceId, provider);
  return row ? versionOf(row) : null;
}

const versionOf = (row: Integration): string => `${row.credential_id}@${row.updated_at.getTime()}`;

// Key reads holding their transaction at once, per process: half the pool. With the embedded credential store the
// vault read takes a second connection from the same pool: unbounded, as many callers as connections would each hold
// one waiting for another, and none would move. (A counter and a queue, so written here rather than adding a
// dependency for them.)
let keyReads = 0;
const waitingKeyReads: Array<() => void> = [];

async function inKeyReadTurn<T>(deps: ActivityDeps, read: () => Promise<T>): Promise<T> {
  if (keyReads >= Math.max(1, Math.floor(deps.config.DATABASE_POOL_SIZE / 2)))
    await new Promise<void>((resolve) => waitingKeyReads.push(resolve));
  else keyReads++;
  try {
    return await read();
  } finally {
    const next = waitingKeyReads.shift();
    if (next) next();
    else keyReads--;
  }
}

/** Reads the workspace's integration with a provider and its key; not connected → non-retryable with `notConnected`. */
export async function connectProvider(
  deps: ActivityDeps,
  workspaceId: string,
  provider: Provider,
  notConnected: string,
): Promise<ProviderConnection> {
  // Both reads under the integration's shared lock: an update holds it from its vault write to its commit, so the
  // base_url read here always belongs with the key read here.
  const { integration, apiKey } = await inKeyReadTurn(deps, () =>
    deps.db.transaction().execute(async (trx) => {
      await shareIntegrationLock(trx, workspaceId, provider);
      const row = await findIntegration(trx, workspaceId, provider);
      return {
        integration: row,
        apiKey: row ? await deps.vault.get({ workspaceId, credentialId: row.credential_id }) : null,
      };
    }),
  );
  if (!integration || !apiKey) throw ApplicationFailure.nonRetryable(notConnected, RUN_FAILURE.providerNotConnected);
  return { baseUrl: integration.base_url ?? PROVIDER_BASE_URLS[provider], apiKey, version: versionOf(integration) };
}

/** Maps a provider failure (judge or agent model) onto the activity failure the workflow acts on: fatal for the run, or retryable. */
export function toActivityFailure(error: unknown): unknown {
  if (!(error instanceof ProviderCallError)) return error;
  switch (error.kind) {
    case 'auth':
      return ApplicationFailure.nonRetryable(error.message, RUN_FAILURE.providerAuthRejected);
    case 'model_not_found':
      return ApplicationFailure.nonRetryable(error.message, RUN_FAILURE.modelNotFound);
    case 'blocked':
      return ApplicationFailure.nonRetryable(error.message, RUN_FAILURE.egressBlocked);
    case 'rejected':
      return ApplicationFailure.nonRetryable(error.message, RUN_FAILURE.providerRequestRejected);
    case 'too_large':
      return ApplicationFailure.nonRetryable(error.message, RUN_FAILURE.providerResponseTooLarge);
    default:
      return ApplicationFailure.retryable(error.message, RUN_FAILURE.providerUnavailable);
  }
}
