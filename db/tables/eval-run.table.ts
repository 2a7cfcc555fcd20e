import type { Efficiency } from '../../domain/scoring/efficiency';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, NullableJson } from './json-column';
import type { CaseStatus } from '../../domain/scoring/case-outcome';
import type { CriterionKey, MinScores } from '../../domain/scoring/criteria';
import type { Provider } from '../../domain/agent/model-provider';
import type { CaseCost } from '../../domain/scoring/run-cost';
import type { RunSummary } from '../../domain/scoring/run-summary';
import type { TurnOutcome } from '../../domain/scoring/turn-outcomes';

/** Eval run statuses; queued → running → completed, or failed with an error, or cancelled from outside. */
export type EvalRunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** The statuses a run never leaves. */
export const FINAL_EVAL_RUN_STATUSES: readonly EvalRunStatus[] = ['completed', 'failed', 'cancelled'];

/** The judge a run resolved at preflight. */
export interface RunJudge {
  provider: Provider;
  model: string;
  source: 'workspace' | 'agent_provider_default';
}

/** The agent version a live run pinned at preflight: every case of the run runs this one. */
export interface RunAgent {
  version: number;
  model: string;
  provider: Provider;
}

/** One execution of a whole eval set. */
export interface EvalRunTable {
  id: Generated<string>;
  workspace_id: string;
  agent_id: string;
  eval_set_id: string;
  status: EvalRunStatus;
  mode: 'offline' | 'live';
  run_selection: 'source' | 'explicit';
  conversations: NullableJson<Record<string, string>>;
  min_scores: Json<MinScores>;
  judge_samples: number;
  judge: NullableJson<RunJudge>;
  agent: NullableJson<RunAgent>;
  /** The run this one retries (`retry-errors`): it scores only the cases that ended `error` there. */
  retry_of: string | null;
  /** The run neither reads nor writes the judge verdict cache. */
  no_cache: ColumnType<boolean, boolean | undefined, never>;
  total_cases: number | null;
  scored_cases: ColumnType<number, never, number>;
  summary: NullableJson<RunSummary>;
  error: string | null;
  /** Times each case is scored (1–10): live runs the agent again, offline asks the judge for fresh samples. */
  repeats: ColumnType<number, number | undefined, never>;
  /** Repeats a case must pass in; null: all of them. */
  min_repeat_pass: ColumnType<number | null, number | null | undefined, never>;
  /** Labels set at trigger time (a git SHA, a branch), distinct; `{}` when none. */
  tags: ColumnType<string[], string[] | undefined, never>;
  /** Approve with evaluation: the quarantined tool this live run offers with its candidate definition. */
  candidate_tool_id: ColumnType<string | null, string | null | undefined, never>;
  created_at: ColumnType<Date, never, never>;
  started_at: Date | null;
  completed_at: Date | null;
}

/** A criterion's entry in a stored case result (the criterion key is the entry's key). */
export interface StoredCriterion {
  score: number;
  min_score: number | null;
  passed: boolean;
  applicable: boolean;
  /** The judge gave no usable verdict after its retries: neither passed nor failed; absent when it was scored. */
  unscored?: boolean;
  detail: unknown;
}

/** Judge token usage summed over the judge calls of one case. */
export interface JudgeUsage {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** One repeat of a case in a run of several: its status and criteria (none when it errored before any was scored). */
export interface StoredRepeat {
  repeat: number;
  status: CaseStatus;
  criteria?: Partial<Record<CriterionKey, StoredCriterion>>;
  /** Live runs: the conversation the repeat's agent run recorded. */
  conversation_id?: string;
}

/** The outcome of one case in one run; at most one per (run_id, case_id). */
export interface CaseResultTable {
  id: Generated<string>;
  run_id: string;
  case_id: string;
  case_name: string;
  conversation_id: string | null;
  status: CaseStatus;
  criteria: Json<Partial<Record<CriterionKey, StoredCriterion>>>;
  error: string | null;
  judge_usage: NullableJson<JudgeUsage>;
  /** A scenario case of a live run: the simulated user's calls over its repeats (null otherwise). */
  simulator_usage: ColumnType<JudgeUsage | null, string | null | undefined, never>;
  /** Judge samples the verdict cache answered (no call made), and those it could not (judged afresh). */
  judge_cache_hits: ColumnType<number, number | undefined, never>;
  judge_cache_misses: ColumnType<number, number | undefined, never>;
  /** Each repeat's outcome, in order; null for a run of one repeat. */
  repeats: ColumnType<StoredRepeat[] | null, string | null | undefined, never>;
  /** The case's flip rate over its repeats (`flipRate`); null for a run of one repeat. */
  flip_rate: ColumnType<number | null, number | null | undefined, never>;
  /** What the case cost in USD (null for results stored before costs were kept, or errors never scored). */
  cost: ColumnType<CaseCost | null, string | null | undefined, string | null>;
  /** The scored conversation's tool calls, model calls, tokens and latency (informational; null before issue 26). */
  efficiency: ColumnType<Efficiency | null, string | null | undefined, never>;
  /** A multi-turn case or conversation: each turn position's outcome; null for one turn scored against one. */
  turns: ColumnType<TurnOutcome[] | null, string | null | undefined, never>;
  /** A `skipped` case: why it was not scored (null otherwise). */
  skip_reason: ColumnType<string | null, string | null | undefined, never>;
  /** The identity of the worker that stored the result (null for results stored before it was recorded). */
  scored_by: ColumnType<string | null, string | null | undefined, never>;
  created_at: ColumnType<Date, never, never>;
}

export type EvalRun = Selectable<EvalRunTable>;
export type CaseResult = Selectable<CaseResultTable>;
