import { z } from 'zod';
import { adkObject, snakeCase as snake } from './adk-schema';
import { issuesAt, type FieldProblem } from '../field-problems';
import type { MinScores } from '../scoring/criteria';
import type { TrajectoryMatch } from '../trajectory/trajectory-modes';

const threshold = z.number().min(0).max(1);
const judgeOptions = adkObject({
  judge_model: z.string().nullish(),
  num_samples: z.number().int().min(1).max(9).nullish(),
});
const rubric = adkObject({ rubric_id: z.string().nullish(), rubric_content: adkObject({ text_property: z.string() }) });
// A plain number is a threshold; an object names its options (each one checked on its own field).
const criterion = z.preprocess(
  (value) => (typeof value === 'number' ? { threshold: value } : value),
  adkObject({
    threshold: threshold.nullish(),
    match_type: z.enum(['EXACT', 'IN_ORDER', 'ANY_ORDER']).nullish(),
    judge_model_options: judgeOptions.nullish(),
    rubrics: z.array(rubric).nullish(),
  }),
);

/** ADK's `test_config.json` / `eval_config.json` (`criteria` values a number or an object, either casing). */
export const adkEvalConfigSchema = adkObject({ criteria: z.record(z.string(), criterion) });

/** A criterion, option or setting of the config Assay does not have, and why. */
export interface Unsupported {
  criterion: string;
  reason: string;
}

/** What a config sets on an eval set and its cases, and what it holds that Assay has not. */
export interface AdkConfigMapping {
  min_scores: Partial<MinScores>;
  judge_samples?: number;
  trajectory_match?: TrajectoryMatch;
  /** Case-level rubrics every case gets (the rubric-based criterion's rubrics). */
  rubrics: string[];
  unsupported: Unsupported[];
}

// ADK's criteria with an Assay counterpart, by the min_scores key they set.
const MAPPED: Readonly<Record<string, keyof MinScores>> = {
  tool_trajectory_avg_score: 'tool_trajectory_avg_score',
  response_match_score: 'response_match_score',
  final_response_match_v2: 'final_response_match',
  rubric_based_final_response_quality_v1: 'rubric_based',
};

// Why each ADK criterion Assay has no counterpart for is left out; any other name is unknown to both.
const NOT_IN_ASSAY: Readonly<Record<string, string>> = {
  response_evaluation_score: "Vertex AI's coherence score: Assay has no such criterion",
  safety_v1: "Vertex AI's safety score: Assay's safety criterion is its own guardrails, binary, with no threshold",
  hallucinations_v1: 'Assay has no hallucination (groundedness) criterion',
  rubric_based_tool_use_quality_v1: "Assay's rubrics judge replies, not tool use",
  per_turn_user_simulator_quality_v1: 'user simulation is not supported yet',
  multi_turn_task_success_v1: 'Assay has no multi-turn task success criterion',
  multi_turn_trajectory_quality_v1: 'Assay has no multi-turn trajectory quality criterion',
  multi_turn_tool_use_quality_v1: 'Assay has no multi-turn tool use quality criterion',
};

const MATCH: Readonly<Record<string, TrajectoryMatch>> = {
  EXACT: 'exact',
  IN_ORDER: 'in_order',
  ANY_ORDER: 'any_order',
};
const KNOWN_OPTIONS = new Set(['threshold', 'match_type', 'judge_model_options', 'rubrics']);

// Options of a mapped criterion Assay does not keep: named, never dropped silently.
function ignoredOptions(name: string, raw: unknown): Unsupported[] {
  if (raw === null || typeof raw !== 'object') return [];
  const entries = Object.entries(raw as Record<string, unknown>).map(([key, value]) => [snake(key), value] as const);
  const judge = entries.find(([key]) => key === 'judge_model_options')?.[1];
  const judgeKeys = judge && typeof judge === 'object' ? Object.keys(judge).map(snake) : [];
  return [
    ...entries.filter(([key]) => !KNOWN_OPTIONS.has(key)).map(([key]) => `${name}.${key}`),
    ...judgeKeys.filter((key) => key !== 'num_samples').map((key) => `${name}.judge_model_options.${key}`),
  ].map((option) => ({
    criterion: option,
    reason: option.endsWith('.judge_model')
      ? "Assay judges with the workspace's judge model"
      : 'an option Assay does not have',
  }));
}

/**
 * Maps an ADK eval config onto an eval set: thresholds onto `min_scores`, `match_type` onto every case's
 * `trajectory_match`, `num_samples` onto `judge_samples` (the most any criterion asks), the rubric-based criterion's
 * rubrics onto every case as case-level rubrics; every criterion, option and setting Assay has not is named.
 */
export function mapAdkConfig(value: unknown): AdkConfigMapping | { problems: FieldProblem[] } {
  const parsed = adkEvalConfigSchema.safeParse(value);
  if (!parsed.success) return { problems: issuesAt('', parsed.error) };
  const mapping: AdkConfigMapping = { min_scores: {}, rubrics: [], unsupported: [] };
  const raw = (value as { criteria?: Record<string, unknown> }).criteria ?? {};
  for (const [name, given] of Object.entries(parsed.data.criteria)) {
    const key = MAPPED[name];
    if (!key) {
      mapping.unsupported.push({ criterion: name, reason: NOT_IN_ASSAY[name] ?? 'not a criterion Assay knows' });
      continue;
    }
    const options = given;
    if (typeof options.threshold === 'number') mapping.min_scores[key] = options.threshold;
    if (options.match_type) mapping.trajectory_match = MATCH[options.match_type];
    const samples = options.judge_model_options?.num_samples;
    if (samples) mapping.judge_samples = Math.max(mapping.judge_samples ?? 0, samples);
    if (key === 'rubric_based')
      mapping.rubrics.push(...(options.rubrics ?? []).map((r) => r.rubric_content.text_property));
    else if (options.rubrics?.length)
      mapping.unsupported.push({ criterion: `${name}.rubrics`, reason: 'only the rubric-based criterion has rubrics' });
    mapping.unsupported.push(...ignoredOptions(name, raw[name]));
  }
  for (const key of Object.keys(parsed.data).filter((k) => k !== 'criteria'))
    mapping.unsupported.push({
      criterion: key,
      reason:
        key === 'user_simulator_config' ? 'user simulation is not supported yet' : 'a setting Assay does not have',
    });
  return mapping;
}
