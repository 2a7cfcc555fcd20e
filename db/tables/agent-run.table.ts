import type { ColumnType, Generated, Selectable } from 'kysely';
import type { AgentMessage, AgentTokenUsage, RequestedToolCall } from '../../domain/agent/agent-messages';
import type { AgentToolDef } from '../../domain/agent/agent-tools';
import type { Provider } from '../../domain/agent/model-provider';
import type { GuardrailEvent } from '../../domain/scoring/safety';
import type { RecordedToolCall } from './conversation.table';
import type { Json } from './json-column';
import type { ConversationScenario } from '../../domain/eval/case-turns';
import type { JudgeUsage } from './eval-run.table';

/** Production runs have real effects; sandbox runs (live evaluation) simulate or replay them. */
export type AgentRunMode = 'production' | 'sandbox';

/** What one model step produced: tool calls to run (indexes into `tool_calls`), or the final answer. */
export type AgentStepOutcome = { kind: 'tools'; tool_calls: RequestedToolCall[]; runnable: number } | { kind: 'final' };

/**
 * One turn of a run: the user's message and, once the turn started, the number of calls recorded before it (its calls
 * follow), whether an input guardrail answered it, and the recorded calls it may replay (`[from, to)` of
 * `replay_calls`; absent: any); once the next turn started, the reply it got.
 */
export interface AgentRunTurn {
  user_message: string;
  first_call?: number;
  blocked?: boolean;
  replay?: [number, number];
  reply?: string | null;
}

/** A run whose user a simulator plays (a scenario case): its settings, and the calls made so far. */
export interface AgentRunSimulation {
  scenario: ConversationScenario;
  max_turns: number;
  stop_signal: string;
  /** The simulator's model: the set's `simulator.model`, else the run's judge model. */
  model: string;
  /** The repeat the run plays: part of each simulated turn's cache key, so repeats are asked apart. */
  seed: number;
  /** Simulator calls made and their tokens (cache hits cost none). */
  usage: JudgeUsage;
  /** User turns the frozen simulation answered (no call). */
  cached_turns: number;
  /** The turn at which the simulated user wrote the stop signal (that turn was not started). */
  stopped_at?: number;
}

/** The runtime state of one agent-run workflow, written by its activities. */
export interface AgentRunTable {
  id: Generated<string>;
  key: string;
  workspace_id: string;
  agent_id: string;
  agent_version: number;
  model: string;
  provider: Provider;
  mode: AgentRunMode;
  eval_run_id: string | null;
  eval_case_id: string | null;
  session_input: Json<Record<string, unknown>>;
  settings: Json<unknown>;
  tools: Json<AgentToolDef[]>;
  replay_calls: Json<RecordedToolCall[]>;
  replay_used: Json<number[]>;
  messages: Json<AgentMessage[]>;
  steps: Json<AgentStepOutcome[]>;
  tool_calls: Json<RecordedToolCall[]>;
  started_calls: Json<string[]>;
  guardrail_events: Json<GuardrailEvent[]>;
  token_usage: Json<AgentTokenUsage>;
  final_response: string | null;
  /** Every turn the run is to run, in order; `[]` for runs made before turns (they ran one). */
  turns: Json<AgentRunTurn[]>;
  /** Set when a simulated user plays the run (a scenario case); null otherwise. */
  simulation: ColumnType<AgentRunSimulation | null, string | null | undefined, string | null>;
  status: 'running' | 'completed' | 'failed' | 'cancelled';
  error: string | null;
  conversation_id: string | null;
  created_at: ColumnType<Date, never, never>;
  finished_at: Date | null;
}

export type AgentRun = Selectable<AgentRunTable>;
