import { ApplicationFailure } from '@temporalio/common';
import { findIntegration } from '../db/integration.repository';
import { EVAL_FAILURE } from '../domain/judge-failures';
import { PROVIDER_BASE_URLS, type Provider } from '../domain/model-provider';
import type { ActivityDeps } from './index';

/** How to reach a provider with the workspace's own key (read inside the activity, never passed around). */
export interface ProviderConnection {
  baseUrl: string;
  apiKey: string;
}

/** Reads the workspace's integration with a provider and its key; not connected → non-retryable with `notConnected`. */
export async function connectProvider(
  deps: ActivityDeps,
  workspaceId: string,
  provider: Provider,
  notConnected: string,
): Promise<ProviderConnection> {
  const integration = await findIntegration(deps.db, workspaceId, provider);
  const apiKey = integration ? await deps.vault.get({ workspaceId, credentialId: integration.credential_id }) : null;
  if (!integration || !apiKey) throw ApplicationFailure.nonRetryable(notConnected, EVAL_FAILURE.providerNotConnected);
  return { baseUrl: integration.base_url ?? PROVIDER_BASE_URLS[provider], apiKey };
}
