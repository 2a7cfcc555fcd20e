import { runtimeSettings, type AgentRuntimeSettings } from './agent-settings';
import { AGENT_NOT_PUBLISHED } from '../eval/run-failures';
import { providerForModel, type Provider } from './model-provider';

/** The facts of an agent version that decide whether it can run. */
interface AgentVersionFacts {
  version: number;
  model: string;
  settings: unknown;
}

/** Why an agent cannot run: never published, a model with no provider, or stored settings the runtime refuses. */
export type AgentNotRunnableReason = 'not_published' | 'model_unresolvable' | 'settings_invalid';

/** The verdict on an agent version: the version with its provider and settings, or why it cannot run (what to fix). */
export type AgentRunnability<V extends AgentVersionFacts = AgentVersionFacts> =
  | { runnable: true; version: V; provider: Provider; settings: AgentRuntimeSettings }
  | { runnable: false; reason: AgentNotRunnableReason; message: string };

/**
 * Decides whether an agent version can run, without I/O: it must exist (the agent was published), its model must
 * resolve to a provider (a slash id goes to the aggregator) and its settings must be valid for the runtime. The
 * route, the eval-run preflight and the agent runtime all ask this one question the same way.
 */
export function agentRunnability<V extends AgentVersionFacts>(version: V | undefined): AgentRunnability<V> {
  if (!version) return { runnable: false, reason: 'not_published', message: AGENT_NOT_PUBLISHED };
  const provider = providerForModel(version.model);
  if (!provider)
    return {
      runnable: false,
      reason: 'model_unresolvable',
      message: `cannot derive a provider from the agent model "${version.model}"`,
    };
  let settings: AgentRuntimeSettings;
  try {
    settings = runtimeSettings(version.settings);
  } catch (error) {
    return {
      runnable: false,
      reason: 'settings_invalid',
      message: `the published agent version has invalid ${(error as Error).message}`,
    };
  }
  return { runnable: true, version, provider, settings };
}
