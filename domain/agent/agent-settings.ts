import { z } from 'zod';
import { boundedLooseObject } from '../bounded-schemas';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from './agent-tools';
import { guardrailsSchema, type Guardrail } from '../guardrails/guardrail-config';

/** The reply an agent gives when a `block` guardrail fires and it sets none of its own. */
export const DEFAULT_SAFE_REPLY = "Sorry, I can't help with that request.";
/** Model steps an agent run takes at most unless its settings say otherwise. */
export const DEFAULT_MAX_STEPS = 10;

const runtimeFields = {
  guardrails: guardrailsSchema.optional(),
  safe_reply: z.string().trim().min(1).max(2000).optional(),
  max_steps: z.number().int().min(1).max(50).optional(),
  builtin_tools: z.array(z.enum(BUILTIN_TOOL_NAMES)).optional(),
  temperature: z.number().min(0).max(2).optional(),
};

/** Validates the runtime fields of an agent's `settings`; other keys are kept as given. */
export const agentSettingsSchema = z.looseObject(runtimeFields);

/** `settings` as the api takes them: the runtime fields, and the other keys within `agentSettingsBytes` (a stored
 * version is read with `agentSettingsSchema`, so one written before the bound still runs). */
export const agentSettingsBody = boundedLooseObject(runtimeFields, 'agentSettingsBytes');

/** How the runtime runs an agent version, with defaults applied. */
export interface AgentRuntimeSettings {
  guardrails: Guardrail[];
  safeReply: string;
  maxSteps: number;
  builtinTools: BuiltinToolName[];
  temperature: number | null;
}

/** Reads a version's settings for the runtime; an invalid value throws an error naming the field. */
export function runtimeSettings(settings: unknown): AgentRuntimeSettings {
  const parsed = agentSettingsSchema.safeParse(settings ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`settings.${issue.path.join('.')}: ${issue.message}`);
  }
  const value = parsed.data;
  return {
    guardrails: value.guardrails ?? [],
    safeReply: value.safe_reply ?? DEFAULT_SAFE_REPLY,
    maxSteps: value.max_steps ?? DEFAULT_MAX_STEPS,
    builtinTools: value.builtin_tools ?? [...BUILTIN_TOOL_NAMES],
    temperature: value.temperature ?? null,
  };
}
