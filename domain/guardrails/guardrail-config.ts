import { z } from 'zod';
import { boundedArray } from '../bounded-schemas';
import { limitMessage } from '../limit-checks';
import { LIMITS } from '../limits';
import { PII_KINDS } from './pii-detectors';
import { userPatternProblem } from './user-patterns';

/** Where a guardrail looks: the user's input before the model, or the agent's final response. */
export const GUARDRAIL_STAGES = ['input', 'output'] as const;
export type GuardrailStage = (typeof GUARDRAIL_STAGES)[number];

const stages = z.array(z.enum(GUARDRAIL_STAGES)).min(1).default(['input', 'output']);
const action = z.enum(['block', 'redact']).default('block');
const name = z.string().trim().min(1).max(100).optional();
const phrase = z.string().trim().min(1).max(200);

// Patterns run on RE2 (linear time); one it refuses is a 422 at save time naming the pattern, never a failed run.
const pattern = z
  .string()
  .min(1)
  .max(LIMITS.guardrailPatternChars, limitMessage('guardrailPatternChars', 'characters'))
  .superRefine((source, ctx) => {
    const problem = userPatternProblem(source);
    if (problem) ctx.addIssue({ code: 'custom', message: `is not a pattern RE2 accepts (${problem}): ${source}` });
  });

/** One guardrail of an agent (`settings.guardrails[]`); `name` is what events and the safety criterion report. */
export const guardrailSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('blocked_terms'), name, action, stages, terms: z.array(phrase).min(1).max(500) }).strict(),
  z
    .object({
      type: z.literal('blocked_patterns'),
      name,
      action,
      stages,
      patterns: boundedArray(pattern, 'guardrailPatterns').min(1),
      case_insensitive: z.boolean().default(true),
    })
    .strict(),
  z
    .object({
      type: z.literal('pii'),
      name,
      action,
      stages,
      detectors: z
        .array(z.enum(PII_KINDS))
        .min(1)
        .default([...PII_KINDS]),
    })
    .strict(),
  z
    .object({ type: z.literal('prompt_injection'), name, action, phrases: z.array(phrase).max(200).default([]) })
    .strict(),
  z
    .object({ type: z.literal('max_output_length'), name, action, max_chars: z.number().int().min(1).max(1_000_000) })
    .strict(),
]);

/** A validated guardrail. */
export type Guardrail = z.infer<typeof guardrailSchema>;

/** An agent's guardrails, applied in order. */
export const guardrailsSchema = boundedArray(guardrailSchema, 'guardrailsPerAgent');

/** The name a guardrail's events carry: its own, else its type. */
export const guardrailName = (guardrail: Guardrail): string => guardrail.name ?? guardrail.type;

/** The stages a guardrail applies at (injection looks at input only, length at output only). */
export function guardrailStages(guardrail: Guardrail): readonly GuardrailStage[] {
  if (guardrail.type === 'prompt_injection') return ['input'];
  if (guardrail.type === 'max_output_length') return ['output'];
  return guardrail.stages;
}
