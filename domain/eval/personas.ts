import { z } from 'zod';
import { boundedArray, boundedString } from '../bounded-schemas';

/** Who a simulated user plays: a description, how the user behaves, and what playing it badly looks like. */
export interface UserPersona {
  description: string;
  behaviours: string[];
  /** Statements of a simulated turn that breaks the persona (read by `persona_adherence`). */
  violation_rubrics: string[];
}

/**
 * The built-in personas a scenario names (`user_persona: "novice"`). `novice` and `expert` follow ADK's pre-built
 * personas (NOVICE, EXPERT, EVALUATOR); `impatient` and `confused` are Assay's.
 */
export const BUILT_IN_PERSONAS = {
  novice: {
    description:
      "A novice is trying to solve a problem they don't fully understand and relies heavily on the agent for " +
      "guidance. Novices are patient with the agent's questions but cannot troubleshoot or correct its mistakes.",
    behaviours: [
      'Moves on to the next goal of the plan once the agent has helped with the current one.',
      'Answers every question the agent asks, as well as the plan allows, even when it seems unnecessary.',
      'Does not correct the agent: accepts what it says, and ends the conversation when it fails.',
      'Writes in a plain, conversational tone, without technical terms.',
    ],
    violation_rubrics: [
      'The user corrects the agent or points out a technical mistake.',
      'The user uses technical vocabulary a novice would not know.',
      'The user refuses to answer a question the agent asked.',
    ],
  },
  expert: {
    description:
      'An expert knows exactly what they want and views the agent as a tool to execute their commands as ' +
      'efficiently as possible. Experts have little patience for chit-chat or unnecessary questions.',
    behaviours: [
      'Gives the details of each request up front and moves on only when every detail was handled.',
      'Answers only the questions relevant to the request; declines the others.',
      'Corrects the agent when it makes a mistake, and asks it to try again once.',
      'Writes tersely and professionally.',
    ],
    violation_rubrics: [
      'The user makes small talk or thanks the agent at length.',
      'The user accepts an incorrect answer without correcting it.',
      'The user asks the agent to explain basic concepts.',
    ],
  },
  impatient: {
    description:
      'An impatient user wants the result now: short messages, little tolerance for questions or delays, and quick ' +
      'to give up when the agent is slow to help.',
    behaviours: [
      'Writes short messages, often a single sentence.',
      'Pushes the agent to act instead of asking more questions.',
      'Ends the conversation after the second unhelpful answer.',
    ],
    violation_rubrics: [
      'The user writes long, detailed messages.',
      'The user patiently answers several clarifying questions in a row.',
    ],
  },
  confused: {
    description:
      'A confused user is unsure of what they need, mixes up terms and sometimes contradicts themselves, and needs ' +
      'the agent to guide them to the goal of the plan.',
    behaviours: [
      'States the goal vaguely at first and clarifies it only when asked.',
      'Occasionally misnames things (an order for an invoice, a refund for an exchange).',
      'Asks the agent to repeat or rephrase what it did not understand.',
    ],
    violation_rubrics: [
      'The user states the whole plan precisely in one message.',
      "The user uses the agent's terms exactly and never needs a clarification.",
    ],
  },
  evaluator: {
    description: 'An evaluator is assessing whether the agent can accomplish the goals in the conversation plan.',
    behaviours: [
      'Follows the plan closely, one request at a time.',
      'Answers only relevant questions and does not correct the agent.',
      'Ends the conversation when the plan is done or the agent fails.',
    ],
    violation_rubrics: ['The user strays from the conversation plan.'],
  },
} as const satisfies Record<string, UserPersona>;

/** The name of a built-in persona. */
export type PersonaName = keyof typeof BUILT_IN_PERSONAS;

const PERSONA_NAMES = Object.keys(BUILT_IN_PERSONAS) as [PersonaName, ...PersonaName[]];

const personaText = boundedString('textChars').regex(/\S/, 'must not be empty');

// ADK's own persona shape (`{id, description, behaviors: [{name, description, behavior_instructions,
// violation_rubrics}]}`), as ADK files hold it: kept as written, read by `resolvePersona`.
const adkBehaviourSchema = z.looseObject({
  name: z.string().max(200).optional(),
  description: personaText,
  behavior_instructions: boundedArray(personaText, 'rubricsPerCase').optional(),
  violation_rubrics: boundedArray(personaText, 'rubricsPerCase').optional(),
});
const adkPersonaSchema = z.looseObject({
  id: z.string().max(200).optional(),
  description: personaText,
  behaviors: boundedArray(adkBehaviourSchema, 'rubricsPerCase'),
});

/** A scenario's `user_persona`: a built-in name (any case, as ADK's `"NOVICE"`), a persona of its own, or ADK's. */
export const userPersonaSchema = z.union([
  z.preprocess((value) => (typeof value === 'string' ? value.toLowerCase() : value), z.enum(PERSONA_NAMES)),
  z
    .object({
      description: personaText,
      behaviours: boundedArray(personaText, 'rubricsPerCase').default([]),
      violation_rubrics: boundedArray(personaText, 'rubricsPerCase').default([]),
    })
    .strict(),
  adkPersonaSchema,
]);

/** A `user_persona` as a scenario holds it. */
export type UserPersonaInput = z.infer<typeof userPersonaSchema>;

/** A scenario's persona, resolved: a built-in one by name, its own as given, ADK's flattened; none when it names none. */
export function resolvePersona(persona: unknown): UserPersona | null {
  if (persona === null || persona === undefined) return null;
  const parsed = userPersonaSchema.safeParse(persona);
  if (!parsed.success) return null;
  const value = parsed.data;
  if (typeof value === 'string') {
    const builtIn = BUILT_IN_PERSONAS[value];
    return { ...builtIn, behaviours: [...builtIn.behaviours], violation_rubrics: [...builtIn.violation_rubrics] };
  }
  if ('behaviors' in value)
    return {
      description: value.description,
      behaviours: value.behaviors.flatMap((b) => [b.description, ...(b.behavior_instructions ?? [])]),
      violation_rubrics: value.behaviors.flatMap((b) => b.violation_rubrics ?? []),
    };
  return { description: value.description, behaviours: value.behaviours, violation_rubrics: value.violation_rubrics };
}
