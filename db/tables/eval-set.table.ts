import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, NullableJson } from './json-column';
import type { MinScores } from '../../domain/scoring/criteria';
import type { ExpectedCall } from '../../domain/trajectory/expected-call';
import type { ToolCall } from '../../domain/trajectory/tool-call';
import type { TrajectoryMatch } from '../../domain/trajectory/trajectory-modes';
import type { CaseTurn, ConversationScenario } from '../../domain/eval/case-turns';
import type { MockPolicy, ToolMock } from '../../domain/eval/tool-mocks';
import type { SimulatorSettings } from '../../domain/eval/simulator-settings';

/** A collection of eval cases for one agent, with its default minimum scores and judge sample count. */
export interface EvalSetTable {
  id: Generated<string>;
  workspace_id: string;
  agent_id: string;
  name: string;
  description: string;
  min_scores: Json<MinScores>;
  judge_samples: number;
  /** Mocks every case of the set falls back to, after its own. */
  tool_mocks: NullableJson<ToolMock[]>;
  /** What a live run's sandbox does with a tool call no mock matches. */
  mock_policy: ColumnType<MockPolicy, MockPolicy | undefined, MockPolicy>;
  /** Whether a sandbox call neither a mock nor the cassette answers gets a model-written response. */
  simulate_tool_responses: ColumnType<boolean, boolean | undefined, boolean>;
  /** How a simulated user plays the set's scenario cases; null: the defaults. */
  simulator: ColumnType<SimulatorSettings | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

/** What a promoted case keeps of its source conversation. */
export interface CaseSnapshot {
  tool_calls: Array<ToolCall & { result?: unknown }>;
  final_response: string;
}

/** One test of an eval set. */
export interface EvalCaseTable {
  id: Generated<string>;
  eval_set_id: string;
  name: string;
  session_input: Json<{ message: string } & Record<string, unknown>>;
  expected_trajectory: NullableJson<ExpectedCall[]>;
  trajectory_match: ColumnType<TrajectoryMatch, TrajectoryMatch | undefined, TrajectoryMatch>;
  expected_final_response: string | null;
  /** Case-level rubrics: judged against the whole conversation (a one-turn case's reply). */
  rubrics: NullableJson<string[]>;
  /** The case's turns; null for a one-turn case, whose turn the columns above describe (they mirror turn 0 always). */
  turns: NullableJson<CaseTurn[]>;
  /** The session's initial state, and the state expected at the end (kept and exported; not scored). */
  state: NullableJson<Record<string, unknown>>;
  final_state: NullableJson<Record<string, unknown>>;
  /** An ADK conversation scenario (a simulated user's prompt and plan), kept whole; such a case needs a user simulator. */
  conversation_scenario: NullableJson<ConversationScenario>;
  /** Mocks that answer the case's tool calls in live runs, before its set's. */
  tool_mocks: NullableJson<ToolMock[]>;
  /** Rubrics about the agent's tool calls (not its reply), judged by `rubric_based_tool_use` over the trajectory. */
  tool_use_rubrics: NullableJson<string[]>;
  source_run_id: string | null;
  snapshot: NullableJson<CaseSnapshot>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export type EvalSet = Selectable<EvalSetTable>;
export type EvalCase = Selectable<EvalCaseTable>;
