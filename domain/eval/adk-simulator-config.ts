import { z } from 'zod';
import { adkObject } from './adk-schema';
import { LIMITS } from '../limits';
import type { Unsupported } from './adk-config';

/** ADK's `user_simulator_config` (an LLM-backed simulator; `type` absent on configs older than the discriminator). */
export const adkSimulatorConfigSchema = adkObject({
  type: z.string().nullish(),
  model: z.string().trim().min(1).max(200).nullish(),
  max_allowed_invocations: z.number().int().min(-1).nullish(),
});

/** What a config sets on the set's `simulator`: the model and the turn cap, where it names them. */
export interface SimulatorOverride {
  model?: string;
  max_turns?: number;
}

const MAPPED_KEYS = new Set(['type', 'model', 'max_allowed_invocations']);
const REASONS: Readonly<Record<string, string>> = {
  custom_instructions: "Assay's simulator plays ADK's instructions, not custom ones",
  model_configuration: 'Assay calls the simulator model with its own settings',
  include_function_calls: 'Assay shows the simulator the replies, not the tool calls',
};

/**
 * Maps ADK's user simulator settings onto the set's `simulator`: `model` as it is, `max_allowed_invocations` (user
 * turns, the first included) onto `max_turns`, capped at `turnsPerScenario` (-1, ADK's "no cap", is that cap too).
 */
export function mapSimulatorConfig(given: z.infer<typeof adkSimulatorConfigSchema>): {
  simulator: SimulatorOverride;
  unsupported: Unsupported[];
} {
  // The schema keeps every key, snake-cased: the ones it does not map are named.
  const unsupported: Unsupported[] = Object.keys(given)
    .filter((key) => !MAPPED_KEYS.has(key))
    .map((key) => ({
      criterion: `user_simulator_config.${key}`,
      reason: REASONS[key] ?? 'an option Assay does not have',
    }));
  if (given.type && given.type !== 'llm_backed')
    return {
      simulator: {},
      unsupported: [
        { criterion: 'user_simulator_config', reason: `Assay's simulator is LLM-backed, not ${given.type}` },
      ],
    };
  const simulator: SimulatorOverride = {};
  if (given.model) simulator.model = given.model;
  const invocations = given.max_allowed_invocations;
  if (typeof invocations === 'number' && invocations !== 0) {
    const cap = LIMITS.turnsPerScenario;
    simulator.max_turns = invocations === -1 ? cap : Math.min(invocations, cap);
    if (invocations === -1 || invocations > cap)
      unsupported.push({
        criterion: 'user_simulator_config.max_allowed_invocations',
        reason: `capped at ${cap} turns (limit turnsPerScenario)`,
      });
  }
  return { simulator, unsupported };
}
