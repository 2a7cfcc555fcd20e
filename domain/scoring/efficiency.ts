/**
 * Efficiency of a case's conversation, informational only (never pass/fail; docs/evaluation.md "Efficiency"): tool
 * calls, model calls (assistant messages of the transcript), tokens (the conversation's `token_usage`, live runs and
 * imports that carry it) and latency, for the case and each turn. A figure the conversation does not record is null.
 */
export interface Efficiency {
  tool_calls: number;
  model_calls: number | null;
  total_tokens: number | null;
  latency_ms: number | null;
  /** Per turn, in order: the tool calls each reply made (model calls, tokens and latency are recorded per case only). */
  turns: Array<{ turn: number; tool_calls: number }>;
}

/** What `efficiencyOf` reads of a conversation. */
export interface EfficiencySource {
  tool_calls: readonly unknown[];
  messages: ReadonlyArray<{ role: string }>;
  token_usage: Record<string, number> | null;
  latency_ms: number | null;
  turns: ReadonlyArray<{ tool_calls: readonly unknown[] }> | null;
}

/** The efficiency figures of one conversation. */
export function efficiencyOf(conversation: EfficiencySource): Efficiency {
  const assistant = conversation.messages.filter((message) => message.role === 'assistant').length;
  const usage = conversation.token_usage;
  const tokens = usage ? (usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0)) : null;
  const turns = conversation.turns ?? [{ tool_calls: conversation.tool_calls }];
  return {
    tool_calls: conversation.tool_calls.length,
    model_calls: assistant > 0 ? assistant : null,
    total_tokens: tokens,
    latency_ms: conversation.latency_ms,
    turns: turns.map((turn, index) => ({ turn: index, tool_calls: turn.tool_calls.length })),
  };
}
