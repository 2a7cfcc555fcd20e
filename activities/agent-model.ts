import { ApplicationFailure } from '@temporalio/common';
import { findAgent, findPublishedVersion } from '../db/agent.repository';
import type { Agent, AgentVersion } from '../db/tables/agent.table';
import { runtimeSettings, type AgentRuntimeSettings } from '../domain/agent-settings';
import { AGENT_NOT_PUBLISHED, EVAL_FAILURE, providerNotConnectedMessage } from '../domain/judge-failures';
import { providerForModel, type Provider } from '../domain/model-provider';
import type { EgressGuard } from '../lib/egress/egress-guard';
import type { ActivityDeps } from './index';
import { connectProvider, type ProviderConnection } from './provider-connection';

/** An agent that can run: its published version, the provider its model resolves to, and its runtime settings. */
export interface RunnableAgent {
  agent: Agent;
  version: AgentVersion;
  provider: Provider;
  settings: AgentRuntimeSettings;
}

/** Connects to the agent's provider with the workspace's key; not connected → the failure names the provider. */
export function connectAgentProvider(
  deps: ActivityDeps,
  workspaceId: string,
  provider: Provider,
  model: string,
): Promise<ProviderConnection> {
  return connectProvider(deps, workspaceId, provider, providerNotConnectedMessage(provider, model, 'agent'));
}

/**
 * Checks everything an agent run needs before it starts: a published version, a model whose provider can be derived
 * (a slash id goes to the aggregator), valid settings, the provider connected in the workspace and its endpoint
 * allowed by the egress guard. Each failure is non-retryable and says what to fix.
 */
export async function resolveRunnableAgent(
  deps: ActivityDeps,
  guard: EgressGuard,
  workspaceId: string,
  agentId: string,
): Promise<RunnableAgent> {
  const agent = await findAgent(deps.db, workspaceId, agentId);
  if (!agent) throw ApplicationFailure.nonRetryable('the agent no longer exists', EVAL_FAILURE.runNotFound);
  const version = await findPublishedVersion(deps.db, agent);
  if (!version) throw ApplicationFailure.nonRetryable(AGENT_NOT_PUBLISHED, EVAL_FAILURE.agentNotPublished);
  const provider = providerForModel(version.model);
  if (!provider)
    throw ApplicationFailure.nonRetryable(
      `cannot derive a provider from the agent model "${version.model}"`,
      EVAL_FAILURE.agentUnresolvable,
    );
  let settings: AgentRuntimeSettings;
  try {
    settings = runtimeSettings(version.settings);
  } catch (error) {
    throw ApplicationFailure.nonRetryable(
      `the published agent version has invalid ${(error as Error).message}`,
      EVAL_FAILURE.agentUnresolvable,
    );
  }
  const { baseUrl } = await connectAgentProvider(deps, workspaceId, provider, version.model);
  const verdict = await guard.check(baseUrl);
  if (!verdict.allowed)
    throw ApplicationFailure.nonRetryable(
      `the ${provider} endpoint is blocked: ${verdict.reason}`,
      EVAL_FAILURE.egressBlocked,
    );
  return { agent, version, provider, settings };
}
