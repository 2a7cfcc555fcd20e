import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, NullableJson } from './json-column';
import type { ConversationTurn } from '../../domain/eval/conversation-turns';
import type { ConversationScenario } from '../../domain/eval/case-turns';
import type { JudgeUsage } from './eval-run.table';

/** Where a conversation came from: imported through the API, or produced by a live or sandbox agent run. */
export type ConversationSource = 'imported' | 'live' | 'sandbox';

/** One recorded tool call of a conversation. */
export interface RecordedToolCall {
  /** The tool's name; for an MCP tool, as `GET …/mcp-servers/{id}/tools` lists it (not the name the model saw). */
  tool_name: string;
  tool_args: Record<string, unknown>;
  /** An MCP tool call: the name of the server the tool belongs to. */
  server?: string;
  result?: unknown;
  /** Set by the agent runtime: the call failed (unknown tool, bad arguments, tool error). */
  error?: string;
  /** Set by the agent runtime: true when the call had no real effect (sandbox simulation or replay). */
  simulated?: boolean;
  /** Set by the agent runtime: the result was replayed from the case's source conversation. */
  replayed?: boolean;
  /** Set by the agent runtime: `<step>:<index>`, the call's place in the run. */
  call_key?: string;
}

/** One message of a conversation, in order. */
export interface ConversationMessage {
  role: string;
  content: string;
  /** An assistant message's tool calls (agent runtime). */
  tool_calls?: Array<{ id: string; name: string; arguments: string }>;
  /** The call a tool message answers (agent runtime). */
  tool_call_id?: string;
}

/** What played the user of a simulated conversation: its scenario, the simulator's model, the simulator calls made
 * and the user turns the frozen simulation replayed (no call). */
export interface ConversationSimulation {
  scenario: ConversationScenario;
  simulator_model: string;
  simulator_calls: number;
  cached_turns: number;
  /** The simulator calls' tokens (priced into the case cost). */
  simulator_usage: JudgeUsage;
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
  /** The conversation's turns; null for a one-turn conversation (the columns above are then its turn). When set, the
   * columns above sum the turns up: every call in order, the last reply, the transcript. */
  turns: NullableJson<Array<ConversationTurn<RecordedToolCall>>>;
  guardrail_events: Json<Array<{ guardrail: string; stage?: string | null; detail?: unknown }>>;
  model: string | null;
  token_usage: NullableJson<Record<string, number>>;
  source: ConversationSource;
  latency_ms: number | null;
  agent_version: number | null;
  stop_reason: string | null;
  /** Set when a simulated user played the conversation's user (null otherwise). */
  simulation: ColumnType<ConversationSimulation | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, never, never>;
}

export type Conversation = Selectable<ConversationTable>;
