import type { AgentStepResult } from '../../domain/agent/agent-turn-loop';
import type { AgentRunState } from '../../db/agent-run.repository';
import type { AgentRun } from '../../db/tables/agent-run.table';
import type { RecordedToolCall } from '../../db/tables/conversation.table';
import {
  assistantToolCallMessage,
  type AgentMessage,
  type AgentTokenUsage,
  type RequestedToolCall,
} from '../../domain/agent/agent-messages';
import type { AgentRuntimeSettings } from '../../domain/agent/agent-settings';
import { applyGuardrails } from '../../domain/guardrails/apply-guardrails';
import { LIMITS } from '../../domain/limits';
import type { ToolChatReply } from '../../lib/outbound/llm/provider-client';

/** What the workflow learns from a model step (defined beside the turn loop that reads it). */
export type { AgentStepResult };

/** Tool calls one model step may run; more are answered with an error without running (bounds the workflow's loop). */
export const MAX_TOOL_CALLS_PER_STEP = 10;

/** The key of a tool call in a run: its step and its position in that step. */
export const callKey = (step: number, index: number): string => `${step}:${index}`;

function addUsage(total: AgentTokenUsage, reply: ToolChatReply['usage']): AgentTokenUsage {
  return {
    model_calls: total.model_calls + 1,
    prompt_tokens: total.prompt_tokens + reply.prompt_tokens,
    completion_tokens: total.completion_tokens + reply.completion_tokens,
    total_tokens: total.total_tokens + reply.total_tokens,
  };
}

/** The step result a recorded step outcome stands for. */
export function stepResultOf(run: AgentRun, step: number): AgentStepResult {
  const outcome = run.steps[step];
  return outcome.kind === 'final' ? { kind: 'final' } : { kind: 'tools', toolCalls: outcome.runnable };
}

// Ids must be unique within the assistant message, since each tool message answers one id.
function uniqueIds(calls: readonly RequestedToolCall[], step: number): RequestedToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, index) => {
    const id = call.id && !seen.has(call.id) ? call.id : `call_${step}_${index}`;
    seen.add(id);
    return { ...call, id };
  });
}

function skippedCall(
  call: RequestedToolCall,
  step: number,
  index: number,
): { recorded: RecordedToolCall; message: AgentMessage } {
  const error = `not run: the model asked for more than ${MAX_TOOL_CALLS_PER_STEP} tool calls in one step`;
  let args: Record<string, unknown> = {};
  try {
    args = JSON.parse(call.arguments) as Record<string, unknown>;
  } catch {
    // the arguments are not even JSON; the call is recorded with none
  }
  return {
    recorded: {
      tool_name: call.name,
      tool_args: args,
      error,
      simulated: false,
      replayed: false,
      call_key: callKey(step, index),
    },
    message: { role: 'tool', tool_call_id: call.id, content: JSON.stringify({ error }) },
  };
}

/**
 * How many more tool calls the run's conversation can hold: each adds a recorded call and a tool message, and room is
 * kept for the step's assistant message and a final answer. Calls past it are dropped from the step unasked.
 */
export function toolCallBudget(run: AgentRun): number {
  return Math.min(
    LIMITS.toolCallsPerConversation - run.tool_calls.length,
    LIMITS.messagesPerConversation - run.messages.length - 2,
  );
}

/**
 * The state after a model reply: tool calls become the step's calls to run (beyond the cap, answered with an error;
 * beyond the conversation's limits, dropped); a final answer, or tool calls when the conversation is full, passes the
 * output guardrails (redacted, or replaced by the safe reply when blocked) and ends the run.
 */
export function recordModelReply(
  run: AgentRun,
  step: number,
  reply: ToolChatReply,
  settings: AgentRuntimeSettings,
): { patch: Partial<AgentRunState>; value: AgentStepResult } {
  const token_usage = addUsage(run.token_usage, reply.usage);
  const budget = toolCallBudget(run);
  if (reply.toolCalls.length > 0 && budget > 0) {
    const calls = uniqueIds(reply.toolCalls.slice(0, budget), step);
    const runnable = Math.min(calls.length, MAX_TOOL_CALLS_PER_STEP);
    const skipped = calls.slice(runnable).map((call, i) => skippedCall(call, step, runnable + i));
    return {
      patch: {
        messages: [...run.messages, assistantToolCallMessage(reply.content, calls), ...skipped.map((s) => s.message)],
        steps: [...run.steps, { kind: 'tools', tool_calls: calls, runnable }],
        tool_calls: [...run.tool_calls, ...skipped.map((s) => s.recorded)],
        token_usage,
      },
      value: { kind: 'tools', toolCalls: runnable },
    };
  }
  const guarded = applyGuardrails(reply.content ?? '', 'output', settings.guardrails);
  const final = guarded.blocked ? settings.safeReply : guarded.text;
  return {
    patch: {
      messages: [...run.messages, { role: 'assistant', content: final }],
      steps: [...run.steps, { kind: 'final' }],
      final_response: final,
      guardrail_events: [...run.guardrail_events, ...guarded.events],
      token_usage,
    },
    value: { kind: 'final' },
  };
}
