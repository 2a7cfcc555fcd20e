import type { ConversationInput } from '../../db/conversation.repository';
import type { AgentRun } from '../../db/tables/agent-run.table';
import type { ConversationMessage } from '../../db/tables/conversation.table';
import type { AgentMessage, AgentStopReason } from '../../domain/agent/agent-messages';
import { recordedTurns } from './agent-turns';

function toConversationMessage(message: AgentMessage): ConversationMessage {
  if (message.role === 'tool') return { role: 'tool', content: message.content, tool_call_id: message.tool_call_id };
  if (message.role === 'assistant' && message.tool_calls?.length) {
    const calls = message.tool_calls.map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    }));
    return { role: 'assistant', content: message.content ?? '', tool_calls: calls };
  }
  return { role: message.role, content: message.content ?? '' };
}

/**
 * The conversation an agent run records: every message but the agent's instructions, the tool calls with their
 * arguments, results and simulated/replayed flags, the final response, guardrail events, usage and latency; a run of
 * several turns also each turn's message, calls and reply (the columns then sum the turns up).
 */
export function conversationOf(run: AgentRun, stopReason: AgentStopReason, finishedAt: Date): ConversationInput {
  return {
    session_input: run.session_input,
    messages: run.messages.filter((message) => message.role !== 'system').map(toConversationMessage),
    tool_calls: run.tool_calls,
    final_response: run.final_response ?? '',
    turns: recordedTurns(run),
    guardrail_events: run.guardrail_events,
    model: run.model,
    token_usage: { ...run.token_usage },
    source: run.mode === 'production' ? 'live' : 'sandbox',
    latency_ms: Math.max(0, finishedAt.getTime() - run.created_at.getTime()),
    agent_version: run.agent_version,
    stop_reason: stopReason,
    simulation: run.simulation && {
      scenario: run.simulation.scenario,
      simulator_model: run.simulation.model,
      simulator_calls: run.simulation.usage.calls,
      cached_turns: run.simulation.cached_turns,
      simulator_usage: run.simulation.usage,
    },
  };
}
