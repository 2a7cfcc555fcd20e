import { LIMITS } from '../limits';
import type { JudgeMessage } from '../scoring/judge-prompts';
import type { ConversationScenario } from './case-turns';
import { resolvePersona, type UserPersona } from './personas';

/** One exchange so far: what the user said and what the agent answered. */
export interface SimulatedExchange {
  user: string;
  agent: string;
}

// ADK's user simulator instructions (llm_backed_user_simulator_prompts.py), shortened, asking for JSON so that every
// provider's JSON mode answers it.
const INSTRUCTIONS = `You are a Simulated User designed to test an AI Agent.

Your single most important job is to react logically to the Agent's last message. The Conversation Plan is your
canonical grounding, not a script; your response MUST be dictated by what the Agent just said.

Choose one action: ANSWER the Agent's questions (only with information from the Conversation Plan; never make any up),
ADVANCE to the next request of the plan once the Agent satisfied the current one, INTERVENE when the plan says to
change the request, CORRECT the Agent when it is wrong (ask it to try again the first time it fails), or END the
conversation when the Agent completed every request of the plan, failed a request more than once, cannot correct a
wrong operation, or handed you to a human agent. Do not end prematurely.`;

function personaSection(persona: UserPersona): string {
  const behaviours = persona.behaviours.map((behaviour) => `- ${behaviour}`).join('\n');
  return `# Persona Description\n\n${persona.description}\n${behaviours ? `This persona behaves in the following ways:\n${behaviours}\n` : ''}`;
}

function history(exchanges: readonly SimulatedExchange[]): string {
  return exchanges.map((exchange) => `user: ${exchange.user}\n\nagent: ${exchange.agent}`).join('\n\n');
}

/**
 * The simulator's prompt for the next user turn: ADK's instructions, the persona, the plan and the conversation so
 * far. The first turn needs none: it is the scenario's starting prompt, verbatim (as ADK does).
 */
export function simulatorPrompt(
  scenario: ConversationScenario,
  exchanges: readonly SimulatedExchange[],
  stopSignal: string,
): JudgeMessage[] {
  const persona = resolvePersona(scenario.user_persona);
  const system = [
    INSTRUCTIONS,
    persona ? personaSection(persona) : '',
    `# Conversation Plan\n\n${scenario.conversation_plan ?? '(none: follow the starting prompt)'}`,
    `Answer with a JSON object {"message": "..."}: your next message to the Agent as the user, or exactly ` +
      `${JSON.stringify(stopSignal)} to END the conversation.`,
  ].filter((part) => part !== '');
  return [
    { role: 'system', content: system.join('\n\n') },
    { role: 'user', content: `# Conversation History\n\n${history(exchanges)}` },
  ];
}

/** What the simulated user answered: its next message, or that it ended the conversation. */
export type SimulatedReply = { stop: true } | { stop: false; message: string };

/**
 * Reads the simulator's reply: `{"message": …}` (or plain text from a provider that ignored JSON mode). The stop
 * signal anywhere in it ends the conversation (case-insensitive, as ADK); an empty reply or one over
 * `simulatorReplyChars` is unusable (null: asked again).
 */
export function parseSimulatorReply(content: string, stopSignal: string): SimulatedReply | null {
  let message = content.trim();
  try {
    const parsed: unknown = JSON.parse(message);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string')
      message = (parsed as { message: string }).message.trim();
  } catch {
    // Plain text: the message as written.
  }
  if (message.toLowerCase().includes(stopSignal.toLowerCase())) return { stop: true };
  if (message === '' || message.length > LIMITS.simulatorReplyChars) return null;
  return { stop: false, message };
}
