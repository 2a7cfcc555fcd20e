/** A tool call as the model asked for it: the provider's call id, the tool's name and its JSON arguments text. */
export interface RequestedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One chat message of an agent run, in the OpenAI chat-completions shape the provider is sent. */
export type AgentMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Token usage summed over the model calls of a run. */
export interface AgentTokenUsage {
  model_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** An assistant message asking for tool calls. */
export function assistantToolCallMessage(content: string | null, calls: readonly RequestedToolCall[]): AgentMessage {
  return {
    role: 'assistant',
    content,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}

/**
 * Why an agent run stopped: how its last turn ended, or `message_limit` when the conversation had no room left for
 * its next turn (`messagesPerConversation`).
 */
export type AgentStopReason = 'completed' | 'input_blocked' | 'step_limit' | 'message_limit';
