/** One criterion of a case result as the API returns it. */
export interface CriterionJson {
  score: number;
  min_score: number | null;
  passed: boolean;
  applicable: boolean;
  detail: unknown;
}

/** One case result as the API returns it. */
export interface CaseResultJson {
  case_id: string;
  case_name: string;
  status: 'passed' | 'failed' | 'error';
  criteria: Record<string, CriterionJson>;
  error: string | null;
}

/** An eval run as the API returns it. */
export interface EvalRunJson {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  summary: {
    pass_rate: number;
    avg_score: Record<string, number>;
    counts?: { total: number; passed: number; failed: number; error: number };
  } | null;
  scored_cases: number;
  total_cases: number | null;
  error?: string | null;
}

/** Criterion keys in the order columns are printed. */
export const CRITERIA_ORDER = ['tool_trajectory_avg_score', 'final_response_match', 'rubric_based', 'safety'];
