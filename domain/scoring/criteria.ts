import { z } from 'zod';

/** Every criterion a case can be scored on, in report order. */
export const CRITERION_KEYS = [
  'tool_trajectory_avg_score',
  'final_response_match',
  'rubric_based',
  'safety',
  'response_match_score',
  'task_success',
  'persona_adherence',
  'hallucinations',
  'rubric_based_tool_use',
] as const;

/** A criterion key as it appears in case results and in the run summary. */
export type CriterionKey = (typeof CRITERION_KEYS)[number];

/** The criteria that carry a configurable minimum score (safety is binary and has none). */
export const MIN_SCORE_KEYS = ['tool_trajectory_avg_score', 'final_response_match', 'rubric_based'] as const;

/** A criterion key that has a configurable minimum score. */
export type MinScoreKey = (typeof MIN_SCORE_KEYS)[number];

/**
 * Criteria applied only when the resolved minimums name them (no default): ADK's deterministic ROUGE-1
 * `response_match_score`, and `hallucinations` (each reply's sentences judged against the tool results). Absent from a summary's `avg_score` unless they applied.
 */
export const OPT_IN_KEYS = ['response_match_score', 'hallucinations'] as const;

/** A criterion key applied only when its minimum is set. */
export type OptInKey = (typeof OPT_IN_KEYS)[number];

/**
 * The criteria of scenario cases (docs/evaluation.md "Scenario criteria"): `task_success` applies with
 * `SCENARIO_DEFAULT_MIN_SCORES` unless set; `persona_adherence` is reported and gates only when its minimum is set.
 * Like opt-in ones they are in resolved minimums and a summary's `avg_score` only once set or applied.
 */
export const SCENARIO_KEYS = ['task_success', 'persona_adherence'] as const;

/** A criterion key of scenario cases. */
export type ScenarioKey = (typeof SCENARIO_KEYS)[number];

/**
 * `rubric_based_tool_use` applies to a case with `tool_use_rubrics`; its minimum is `rubric_based`'s unless set (so no
 * default of its own is shown), and it is listed in a summary's `avg_score` only once it applied.
 */
export const TOOL_USE_KEYS = ['rubric_based_tool_use'] as const;

/** A criterion key judged over the tool calls. */
export type ToolUseKey = (typeof TOOL_USE_KEYS)[number];

/** The criteria a summary lists only once they applied (no default shown for them). */
export const APPLIED_ONLY_KEYS: readonly CriterionKey[] = [...OPT_IN_KEYS, ...SCENARIO_KEYS, ...TOOL_USE_KEYS];

/** Minimum score per configurable criterion, each in [0, 1]; an opt-in or scenario criterion only where it was set. */
export type MinScores = Record<MinScoreKey, number> & Partial<Record<OptInKey | ScenarioKey | ToolUseKey, number>>;

/** The minimum `task_success` needs when no layer sets it (kept apart so one-turn sets show no scenario default). */
export const SCENARIO_DEFAULT_MIN_SCORES: Readonly<{ task_success: number }> = Object.freeze({ task_success: 0.7 });

/** The spec's defaults, used where neither the eval set nor the run sets a minimum. */
export const DEFAULT_MIN_SCORES: Readonly<MinScores> = Object.freeze({
  tool_trajectory_avg_score: 1.0,
  final_response_match: 0.8,
  rubric_based: 0.7,
});

const minScore = z.number().min(0).max(1);

/** Validates a partial minimum-scores object (eval-set defaults or a per-run override); unknown keys are rejected. */
export const minScoresOverrideSchema = z
  .object({
    tool_trajectory_avg_score: minScore.optional(),
    final_response_match: minScore.optional(),
    rubric_based: minScore.optional(),
    response_match_score: minScore.optional(),
    hallucinations: minScore.optional(),
    rubric_based_tool_use: minScore.optional(),
    task_success: minScore.optional(),
    persona_adherence: minScore.optional(),
  })
  .strict();

/** The score entry of one criterion for one case. */
export interface CriterionResult<D = unknown> {
  criterion: CriterionKey;
  score: number;
  min_score: number | null;
  passed: boolean;
  applicable: boolean;
  /** The judge or simulator gave no usable verdict after its retries: neither passed nor failed (see `unscoredResult`). */
  unscored?: boolean;
  detail: D;
}

/** Detail of a criterion that did not apply to the case (it counts as passed with score 1.0). */
export interface NotApplicableDetail {
  reason: string;
}

/** A criterion that could not be scored (for instance the judge gave no usable verdict); it becomes `unscored`. */
export interface CriterionError {
  criterion: CriterionKey;
  error: string;
}

/** Tells a scored criterion from one that could not be scored. */
export function isCriterionError(entry: CriterionResult | CriterionError): entry is CriterionError {
  return 'error' in entry;
}

/**
 * Merges the spec defaults, then the eval set's defaults, then the run's override; absent keys fall through (an
 * opt-in criterion stays absent unless a layer sets it).
 */
export function resolveMinScores(
  setDefaults?: Partial<MinScores> | null,
  runOverride?: Partial<MinScores> | null,
): MinScores {
  const resolved: MinScores = { ...DEFAULT_MIN_SCORES };
  for (const layer of [setDefaults, runOverride]) {
    for (const key of [...MIN_SCORE_KEYS, ...OPT_IN_KEYS, ...SCENARIO_KEYS, ...TOOL_USE_KEYS]) {
      const value = layer?.[key];
      if (typeof value === 'number') resolved[key] = value;
    }
  }
  return resolved;
}

/** Builds the result of a criterion that did not apply: passed, score 1.0, flagged not applicable. */
export function notApplicable(
  criterion: CriterionKey,
  minScore: number | null,
  reason: string,
): CriterionResult<NotApplicableDetail> {
  return { criterion, score: 1, min_score: minScore, passed: true, applicable: false, detail: { reason } };
}

/** Builds the result of a criterion reported beside the score without gating the case (no minimum: it passes). */
export function reportedOnly<D>(criterion: CriterionKey, score: number, detail: D): CriterionResult<D> {
  return { criterion, score, min_score: null, passed: true, applicable: true, detail };
}

/** Builds the result of an applied criterion; it passes when the score reaches the minimum. */
export function scored<D>(criterion: CriterionKey, score: number, minScore: number, detail: D): CriterionResult<D> {
  return { criterion, score, min_score: minScore, passed: score >= minScore, applicable: true, detail };
}
