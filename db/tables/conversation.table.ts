import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, NullableJson } from './json-column';
import type { ConversationTurn } from '../../domain/eval/conversation-turns';
import type { MockReport } from '../../domain/eval/tool-mocks';
import type { ConversationScenario } from '../../domain/eval/case-turns';
import type { JudgeUsage } from './eval-run.table';

/** Where a conversation came from: imported through the API, produced by a live or sandbox agent run, or recorded from
 * one MCP session of the gateway. */
export type ConversationSource = 'imported' | 'live' | 'sandbox' | 'gateway';

/** What answered a sandbox tool call other than a replay or a real call. */
export type ToolAnswerSource = 'mock' | 'cassette' | 'model';

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
  /** Set by the agent runtime: a sandbox call answered by a tool mock, the set's cassette or a model-written response. */
  answered_by?: ToolAnswerSource;
  /** Set by the agent runtime: a model-written response's judge usage (calls and tokens). */
  judge_usage?: { calls: number; prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** Set by the agent runtime: `<step>:<index>`, the call's place in the run. */
  call_key?: string;
  /** Set by the gateway: the name the MCP client called, when it differs from `tool_name` (a link's prefix). */
  exposed_name?: string;
  /** Set by the gateway: when the call started, its duration and its arguments' and result's sizes as JSON. */
  started_at?: string;
  latency_ms?: number;
  argument_bytes?: number;
  result_bytes?: number;
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
  /** A sandbox run with tool mocks: the calls none matched and the mocks not used up; null otherwise. */
  tool_mocks: ColumnType<MockReport | null, string | null | undefined, never>;
  /** Set when a simulated user played the conversation's user (null otherwise). */
  simulation: ColumnType<ConversationSimulation | null, string | null | undefined, string | null>;
  /** A gateway recording: the MCP session it records (one conversation per session and agent). */
  mcp_session_id: ColumnType<string | null, string | null | undefined, never>;
  /** A gateway recording: the Assay token the session authenticated with (its id). */
  token_id: ColumnType<string | null, string | null | undefined, never>;
  /** A gateway recording stopped keeping calls, arguments or results at a bound (the calls themselves went on). */
  truncated: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, never, never>;
}

export type Conversation = Selectable<ConversationTable>;
