import type { ToolCall } from '../trajectory/tool-call';

/** One turn of a conversation: the user's message, the tool calls the agent made in reply, and its reply. */
export interface ConversationTurn<Call extends ToolCall = ToolCall> {
  user_message: string;
  tool_calls: Call[];
  final_response: string;
}

interface TranscriptMessage {
  role: string;
  content: string;
}

/** What a conversation row holds of its turns: the `turns` column, else the one turn of a single-turn record. */
export interface ConversationTurnColumns<Call extends ToolCall> {
  turns: Array<ConversationTurn<Call>> | null;
  session_input: Record<string, unknown>;
  messages: TranscriptMessage[];
  tool_calls: Call[];
  final_response: string;
}

/** The first non-blank user message of a transcript, else the session input's message. */
export function firstUserMessage(row: {
  messages: TranscriptMessage[];
  session_input: Record<string, unknown>;
}): string {
  const fromMessages = row.messages.find((message) => message.role === 'user' && message.content.trim() !== '');
  return fromMessages?.content ?? String(row.session_input.message ?? '');
}

/** A conversation's turns, in order: its `turns`, or the one turn of a single-turn record. */
export function conversationTurns<Call extends ToolCall>(
  row: ConversationTurnColumns<Call>,
): Array<ConversationTurn<Call>> {
  if (row.turns) return row.turns;
  return [{ user_message: firstUserMessage(row), tool_calls: row.tool_calls, final_response: row.final_response }];
}

/** The single-turn columns that sum a conversation of turns up: every call in order, the last reply, a transcript. */
export function conversationColumnsOf<Call extends ToolCall>(
  turns: Array<ConversationTurn<Call>>,
): { tool_calls: Call[]; final_response: string; messages: TranscriptMessage[] } {
  return {
    tool_calls: turns.flatMap((turn) => turn.tool_calls),
    final_response: turns[turns.length - 1].final_response,
    messages: turns.flatMap((turn) => [
      { role: 'user', content: turn.user_message },
      { role: 'assistant', content: turn.final_response },
    ]),
  };
}
