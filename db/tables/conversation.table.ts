import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, NullableJson } from './json-column';


/** Where a conversation came from: imported through the API, or produced by a live or sandbox agent run. */
export type ConversationSource = 'imported' | 'live' | 'sandbox';

/** One recorded tool call of a conversation. */
export interface RecordedToolCall {
  tool_name: string;
  tool_args: Record<string, unknown>;
  result?: unknown;
}

/** One message of a conversation, in order. */
export interface ConversationMessage {
  role: string;
  content: string;
}

/** One recorded agent run (the spec's `{run}`): what the agent was asked, did and answered. */
export interface ConversationTable {
  id: Generated<string>;
  workspace_id: string;
  agent_id: string;
  session_input: Json<Record<string, unknown>>;
  messages: Json<ConversationMessage[]>;
  tool_calls: Json<RecordedToolCall[]>;
  final_response: string;
  guardrail_events: Json<Array<{ guardrail: string; stage?: string | null; detail?: unknown }>>;
  model: string | null;
  token_usage: NullableJson<Record<string, number>>;
  source: ConversationSource;
  created_at: ColumnType<Date, never, never>;
}

export type Conversation = Selectable<ConversationTable>;
