import type { TurnStart } from '../../domain/agent/agent-turn-loop';
import type { AgentRunState } from '../../db/agent-run.repository';
import type { AgentRun, AgentRunTurn } from '../../db/tables/agent-run.table';
import type { RecordedToolCall } from '../../db/tables/conversation.table';
import type { AgentMessage } from '../../domain/agent/agent-messages';
import type { AgentRuntimeSettings } from '../../domain/agent/agent-settings';
import type { ConversationTurn } from '../../domain/eval/conversation-turns';
import { applyGuardrails, type GuardrailOutcome } from '../../domain/guardrails/apply-guardrails';
import { LIMITS } from '../../domain/limits';

/** How a turn started (defined beside the turn loop that reads it). */
export type { TurnStart };

/**
 * A turn's first messages: the user's message (as the input guardrails left it) and, when a guardrail blocked it,
 * the safe reply.
 */
export function turnMessages(message: string, guarded: GuardrailOutcome, safeReply: string): AgentMessage[] {
  const messages: AgentMessage[] = [{ role: 'user', content: guarded.blocked ? message : guarded.text }];
  if (guarded.blocked) messages.push({ role: 'assistant', content: safeReply });
  return messages;
}

/** The turns a run starts with: turn 0 started (with its replayable calls), the others planned. */
export function plannedTurns(
  userMessages: readonly string[],
  replay: ReadonlyArray<[number, number]> | undefined,
  blocked: boolean,
): AgentRunTurn[] {
  return userMessages.map((user_message, turn) => ({
    user_message,
    ...(replay?.[turn] ? { replay: replay[turn] } : {}),
    ...(turn === 0 ? { first_call: 0, blocked } : {}),
  }));
}

/**
 * The state once turn `turn` started: the previous turn's reply kept, the user's message added after the whole
 * session so far (or the safe reply when an input guardrail blocked it). A turn already started answers as it did; a
 * conversation without room for a message and a reply is full, and changes nothing.
 */
export function startTurn(
  run: AgentRun,
  turn: number,
  settings: AgentRuntimeSettings,
): { patch?: Partial<AgentRunState>; value: TurnStart } {
  const planned = run.turns[turn];
  if (planned.first_call !== undefined) return { value: { blocked: planned.blocked ?? false } };
  if (run.messages.length + 2 > LIMITS.messagesPerConversation) return { value: { blocked: false, full: true } };
  const guarded = applyGuardrails(planned.user_message, 'input', settings.guardrails);
  const turns = run.turns.map((entry, index): AgentRunTurn => {
    if (index === turn - 1) return { ...entry, reply: run.final_response };
    if (index === turn) return { ...entry, first_call: run.tool_calls.length, blocked: guarded.blocked };
    return entry;
  });
  return {
    patch: {
      turns,
      messages: [...run.messages, ...turnMessages(planned.user_message, guarded, settings.safeReply)],
      guardrail_events: [...run.guardrail_events, ...guarded.events],
      final_response: guarded.blocked ? settings.safeReply : null,
    },
    value: { blocked: guarded.blocked },
  };
}

/** The recorded calls the run's current turn may not replay: those used, and those of other turns. */
export function unreplayable(run: AgentRun): number[] {
  const current = run.turns.filter((turn) => turn.first_call !== undefined).pop();
  if (!current?.replay) return run.replay_used;
  const [from, to] = current.replay;
  const outside = run.replay_calls.flatMap((_, index) => (index < from || index >= to ? [index] : []));
  return [...new Set([...run.replay_used, ...outside])];
}

/** The turns a run's conversation records: each started turn's message, calls and reply; null when it ran one. */
export function recordedTurns(run: AgentRun): Array<ConversationTurn<RecordedToolCall>> | null {
  const started = run.turns.filter((turn) => turn.first_call !== undefined);
  if (started.length < 2) return null;
  return started.map((turn, index) => {
    const last = index === started.length - 1;
    return {
      user_message: turn.user_message,
      tool_calls: run.tool_calls.slice(turn.first_call, last ? undefined : started[index + 1].first_call),
      final_response: (last ? run.final_response : turn.reply) ?? '',
    };
  });
}
