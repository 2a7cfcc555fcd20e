import type { JudgedCaseComparison, JudgedComparison } from '../domain/eval/comparison-statistics';
import type { CaseComparison, Delta, RunComparison } from '../domain/eval/run-comparison';
import type { EfficiencyComparison, EfficiencyDelta } from '../domain/eval/efficiency-delta';

/** One criterion of a case result as the API returns it. */
export interface CriterionJson {
  score: number;
  min_score: number | null;
  passed: boolean;
  applicable: boolean;
  detail: unknown;
}

/** One turn of a multi-turn case result, aligned by position (`turn` is 0-based). */
export interface TurnResultJson {
  turn: number;
  status: 'scored' | 'missing' | 'extra';
  user_message: string | null;
  expected_response: string | null;
  actual_response: string | null;
  passed: boolean;
  criteria: Record<string, Omit<CriterionJson, 'applicable'> & { applicable?: boolean }>;
}

/** One case result as the API returns it. */
export interface CaseResultJson {
  case_id: string;
  case_name: string;
  status: 'passed' | 'failed' | 'error' | 'skipped';
  criteria: Record<string, CriterionJson>;
  error: string | null;
  /** Null (or absent) for a one-turn case scored against a one-turn conversation. */
  turns?: TurnResultJson[] | null;
  first_failed_turn?: number | null;
  skip_reason?: string | null;
}

/** A run's cost in USD as the API returns it (null parts: unpriced, or no agent cost offline). */
export interface RunCostJson {
  judge_usd: number | null;
  agent_usd: number | null;
  total_usd: number | null;
  unpriced_models: string[];
}

/** An eval run as the API returns it. */
export interface EvalRunJson {
  id: string;
  eval_set_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  summary: {
    pass_rate: number;
    /** Every criterion key; null where the criterion never applied. */
    avg_score: Record<string, number | null>;
    counts?: { total: number; passed: number; failed: number; error: number; skipped?: number };
    cost?: RunCostJson;
    /** A cancelled run's cases that got no result. */
    not_scored?: number;
    /** Judge samples the verdict cache answered, and those it did not. */
    judge_cache?: { hits: number; misses: number };
    /** A run of several repeats: the cases that passed in some and not in others. */
    flaky?: Array<{ case_id: string; name: string; flip_rate: number }>;
    flaky_count?: number;
    /** The Wilson 95% interval of the pass rate, and a bootstrap one per criterion mean. */
    pass_rate_interval?: { low: number; high: number } | null;
    avg_score_interval?: Record<string, { low: number; high: number } | null>;
    /** A run of several repeats: pass@k and pass^k for k = 1 … repeats. */
    pass_at_k?: Array<{ k: number; pass_at_k: number; pass_hat_k: number }>;
    /** Cases with an unscored criterion (the judge gave no usable verdict), and per criterion; only when some had. */
    unscored?: { cases: number; criteria: Record<string, number> };
  } | null;
  repeats?: number;
  min_repeat_pass?: number;
  scored_cases: number;
  total_cases: number | null;
  error?: string | null;
  tags?: string[];
}

/** One criterion's score (or mean) in a run and its baseline, and the change. */
export type CriterionDeltaJson = Delta;
/** One case of a comparison (`flaky`/`verdict`/`trajectory_diff` absent from an API without them). */
export type CaseComparisonJson = CaseComparison &
  Partial<Omit<JudgedCaseComparison, keyof CaseComparison>> & { efficiency_delta?: EfficiencyDelta | null };
/** A run compared with its baseline (`GET …/eval-runs/{run}/compare`), every page of cases gathered. */
export interface ComparisonJson {
  run_id: string;
  baseline_run_id: string;
  summary: RunComparison['summary'];
  cases: CaseComparisonJson[];
  verdicts?: JudgedComparison['verdicts'];
  statistics?: JudgedComparison['statistics'];
  regression?: JudgedComparison['regression'];
  /** Informational: each efficiency figure's mean in both runs (absent from an API without it). */
  efficiency?: EfficiencyComparison;
}

/** Criterion keys in the order columns are printed. */
export const CRITERIA_ORDER = [
  'tool_trajectory_avg_score',
  'final_response_match',
  'response_match_score',
  'rubric_based',
  'task_success',
  'persona_adherence',
  'safety',
];
