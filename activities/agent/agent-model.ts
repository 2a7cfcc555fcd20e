import { ApplicationFailure } from '@temporalio/common';
import { findAgent, findAgentVersion, findPublishedVersion, judgedModelOf } from '../../db/agent.repository';
import { pinRunAgent, type ScoringRun } from '../../db/eval-run.repository';
import type { Agent, AgentVersion } from '../../db/tables/agent.table';
import type { RunAgent } from '../../db/tables/eval-run.table';
import type { AgentRuntimeSettings } from '../../domain/agent/agent-settings';
import { agentRunnability, type AgentNotRunnableReason } from '../../domain/agent/agent-runnability';
import { RUN_FAILURE, providerNotConnectedMessage, type RunFailureType } from '../../domain/eval/run-failures';
import type { Provider } from '../../domain/agent/model-provider';
import type { EgressGuard } from '../../lib/outbound/egress/egress-guard';
import type { ActivityDeps } from '../platform/activity-deps';
import { connectProvider, type ProviderConnection } from '../platform/provider-connection';

/** An agent that can run: the version it runs, the provider its model resolves to, and its runtime settings. */
export interface RunnableAgent {
  agent: Agent;
  version: AgentVersion;
  provider: Provider;
  settings: AgentRuntimeSettings;
}

// Every reason ends the whole run: no other case could run the same version either.
const NOT_RUNNABLE_FAILURE: Readonly<Record<AgentNotRunnableReason, RunFailureType>> = {
  not_published: RUN_FAILURE.agentNotPublished,
  model_unresolvable: RUN_FAILURE.agentUnresolvable,
  settings_invalid: RUN_FAILURE.agentUnresolvable,
};

async function requireAgent(deps: ActivityDeps, workspaceId: string, agentId: string): Promise<Agent> {
  const agent = await findAgent(deps.db, workspaceId, agentId);
  if (!agent) throw ApplicationFailure.nonRetryable('the agent no longer exists', RUN_FAILURE.evalRunNotFound);
  return agent;
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
 * Loads the version an agent run uses (the pinned one when given, else the published one) and asks the domain
 * whether it can run; no network. Each failure is non-retryable and says what to fix.
 */
export async function loadRunnableAgent(
  deps: ActivityDeps,
  workspaceId: string,
  agentId: string,
  pinnedVersion?: number,
): Promise<RunnableAgent> {
  const agent = await requireAgent(deps, workspaceId, agentId);
  const version =
    pinnedVersion === undefined
      ? await findPublishedVersion(deps.db, agent)
      : await findAgentVersion(deps.db, agent.id, pinnedVersion);
  const verdict = agentRunnability(version);
  if (!verdict.runnable) throw ApplicationFailure.nonRetryable(verdict.message, NOT_RUNNABLE_FAILURE[verdict.reason]);
  return { agent, version: verdict.version, provider: verdict.provider, settings: verdict.settings };
}

/**
 * Everything an agent run needs before it starts: a runnable version (see `loadRunnableAgent`), the provider
 * connected in the workspace and its endpoint allowed by the egress guard.
 */
export async function resolveRunnableAgent(
  deps: ActivityDeps,
  guard: EgressGuard,
  workspaceId: string,
  agentId: string,
  pinnedVersion?: number,
): Promise<RunnableAgent> {
  const runnable = await loadRunnableAgent(deps, workspaceId, agentId, pinnedVersion);
  const { provider, version } = runnable;
  const { baseUrl } = await connectAgentProvider(deps, workspaceId, provider, version.model);
  const verdict = await guard.check(baseUrl);
  if (!verdict.allowed)
    throw ApplicationFailure.nonRetryable(
      `the ${provider} endpoint is blocked: ${verdict.reason}`,
      RUN_FAILURE.egressBlocked,
    );
  return runnable;
}

/**
 * Resolves a live eval run's runnable agent and pins its version, model and provider on the run; a run already
 * pinned keeps its version (checked again, never replaced by a newer publication).
 */
export async function pinLiveRunAgent(deps: ActivityDeps, guard: EgressGuard, run: ScoringRun): Promise<RunAgent> {
  const { version, provider } = await resolveRunnableAgent(
    deps,
    guard,
    run.workspace_id,
    run.agent_id,
    run.agent?.version,
  );
  return pinRunAgent(deps.db, run.id, { version: version.version, model: version.model, provider });
}

/** The agent model an offline run's judge derives its provider from: the published version's, else the draft's. */
export async function judgedAgentModel(deps: ActivityDeps, workspaceId: string, agentId: string): Promise<string> {
  return judgedModelOf(deps.db, await requireAgent(deps, workspaceId, agentId));
}
