import { z } from 'zod';
import { adkObject, snakeCase as snake } from './adk-schema';
import { adkSimulatorConfigSchema, mapSimulatorConfig, type SimulatorOverride } from './adk-simulator-config';
import { issuesAt, type FieldProblem } from '../field-problems';
import type { MinScores } from '../scoring/criteria';
import type { TrajectoryMatch } from '../trajectory/trajectory-modes';

const threshold = z.number().min(0).max(1);
const judgeOptions = adkObject({
  judge_model: z.string().nullish(),
  num_samples: z.number().int().min(1).max(9).nullish(),
});
const rubric = adkObject({ rubric_id: z.string().nullish(), rubric_content: adkObject({ text_property: z.string() }) });
const MATCH_TYPES = ['EXACT', 'IN_ORDER', 'ANY_ORDER'] as const;
// As ADK's ToolTrajectoryCriterion reads it: a name in any case (`-` or a space for `_`), or the enum's value 0/1/2.
const matchType = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value.trim().toUpperCase().replace(/[- ]/g, '_')
      : typeof value === 'number' && Number.isInteger(value)
        ? (MATCH_TYPES[value] ?? value)
        : value,
  z.enum(MATCH_TYPES),
);
// A plain number is a threshold; an object names its options (each one checked on its own field).
const criterion = z.preprocess(
  (value) => (typeof value === 'number' ? { threshold: value } : value),
  adkObject({
    threshold: threshold.nullish(),
    match_type: matchType.nullish(),
    judge_model_options: judgeOptions.nullish(),
    rubrics: z.array(rubric).nullish(),
    include_intermediate_responses_in_final: z.boolean().nullish(),
    evaluate_intermediate_nl_responses: z.boolean().nullish(),
  }),
);

// ADK's informational efficiency metrics: always reported, never pass or fail; ADK refuses one named in `criteria`.
const EFFICIENCY = ['tool_call_count_v1', 'inference_call_count_v1', 'token_usage_v1', 'invocation_duration_v1'];
const criteria = z.record(z.string(), criterion).superRefine((given, ctx) => {
  for (const name of Object.keys(given).filter((key) => EFFICIENCY.includes(key)))
    ctx.addIssue({
      code: 'custom',
      path: [name],
      message:
        'does not support a threshold: it reports a value and never passes or fails (as in ADK); Assay reports ' +
        "it in every case result's efficiency",
    });
});

/** ADK's `test_config.json` / `eval_config.json` (`criteria` values a number or an object, either casing). */
export const adkEvalConfigSchema = adkObject({
  criteria,
  custom_metrics: z.record(z.string(), z.unknown()).nullish(),
  user_simulator_config: adkSimulatorConfigSchema.nullish(),
});

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
  /** Tool-use rubrics every case gets (the rubric-based tool use criterion's rubrics). */
  tool_use_rubrics: string[];
  /** What `user_simulator_config` sets on the set's simulator (absent: the config has none). */
  simulator?: SimulatorOverride;
  unsupported: Unsupported[];
}

/** ADK's criteria (metric names) with an Assay counterpart, by the min_scores key they set. */
export const ADK_CRITERIA: Readonly<Record<string, keyof MinScores>> = {
  tool_trajectory_avg_score: 'tool_trajectory_avg_score',
  response_match_score: 'response_match_score',
  final_response_match_v2: 'final_response_match',
  rubric_based_final_response_quality_v1: 'rubric_based',
  hallucinations_v1: 'hallucinations',
  rubric_based_tool_use_quality_v1: 'rubric_based_tool_use',
  multi_turn_task_success_v1: 'task_success',
};

// Why each ADK criterion Assay has no counterpart for is left out; any other name is unknown to both.
const NOT_IN_ASSAY: Readonly<Record<string, string>> = {
  response_evaluation_score: "Vertex AI's coherence score: Assay has no such criterion",
  safety_v1: "Vertex AI's safety score: Assay's safety criterion is its own guardrails, binary, with no threshold",
  per_turn_user_simulator_quality_v1: "Assay does not score the simulated user's turns",
  multi_turn_trajectory_quality_v1: 'Assay has no multi-turn trajectory quality criterion',
  multi_turn_tool_use_quality_v1: 'Assay has no multi-turn tool use quality criterion',
  rubric_based_multi_turn_trajectory_quality_v1: 'Assay has no multi-turn trajectory quality criterion',
};
const CUSTOM_METRIC = 'a custom metric (custom_metrics): ADK runs its Python function, Assay runs no user code';

const MATCH: Readonly<Record<string, TrajectoryMatch>> = {
  EXACT: 'exact',
  IN_ORDER: 'in_order',
  ANY_ORDER: 'any_order',
};
// Options Assay honours; the two intermediate-response flags only at false, Assay's (and ADK's default) behaviour.
const KNOWN_OPTIONS = new Set(['threshold', 'match_type', 'judge_model_options', 'rubrics']);
const FINAL_ONLY = ['include_intermediate_responses_in_final', 'evaluate_intermediate_nl_responses'];
const RUBRIC_KEYS = new Set<keyof MinScores>(['rubric_based', 'rubric_based_tool_use']);

// Options of a mapped criterion Assay does not keep: named, never dropped silently.
function ignoredOptions(name: string, raw: unknown): Unsupported[] {
  if (raw === null || typeof raw !== 'object') return [];
  const entries = Object.entries(raw as Record<string, unknown>).map(([key, value]) => [snake(key), value] as const);
  const judge = entries.find(([key]) => key === 'judge_model_options')?.[1];
  const judgeKeys = judge && typeof judge === 'object' ? Object.keys(judge).map(snake) : [];
  const honoured = ([key, value]: readonly [string, unknown]): boolean =>
    KNOWN_OPTIONS.has(key) || (FINAL_ONLY.includes(key) && value === false);
  return [
    ...entries.filter((entry) => !honoured(entry)).map(([key]) => `${name}.${key}`),
    ...judgeKeys.filter((key) => key !== 'num_samples').map((key) => `${name}.judge_model_options.${key}`),
  ].map((option) => ({ criterion: option, reason: optionReason(option) }));
}

function optionReason(option: string): string {
  if (option.endsWith('.judge_model')) return "Assay judges with the workspace's judge model";
  if (FINAL_ONLY.some((flag) => option.endsWith(`.${flag}`)))
    return "Assay judges each turn's final reply only, not the text the agent wrote before its tool calls";
  return 'an option Assay does not have';
}

function unmappedReason(name: string, customMetrics: Record<string, unknown>): string {
  if (name in customMetrics) return CUSTOM_METRIC;
  return NOT_IN_ASSAY[name] ?? 'not a criterion Assay knows';
}

/**
 * Maps an ADK eval config onto an eval set: thresholds onto `min_scores`, `match_type` onto every case's
 * `trajectory_match`, `num_samples` onto `judge_samples` (the most any criterion asks), the rubric-based criteria's
 * rubrics onto every case (`rubrics`, `tool_use_rubrics`), `user_simulator_config` onto the set's `simulator`; every
 * criterion, option and setting Assay has not is named.
 */
export function mapAdkConfig(value: unknown): AdkConfigMapping | { problems: FieldProblem[] } {
  const parsed = adkEvalConfigSchema.safeParse(value);
  if (!parsed.success) return { problems: issuesAt('', parsed.error) };
  const mapping: AdkConfigMapping = { min_scores: {}, rubrics: [], tool_use_rubrics: [], unsupported: [] };
  const raw = (value as { criteria?: Record<string, unknown> }).criteria ?? {};
  const customMetrics = parsed.data.custom_metrics ?? {};
  for (const [name, options] of Object.entries(parsed.data.criteria)) {
    const key = ADK_CRITERIA[name];
    if (!key || name in customMetrics) {
      mapping.unsupported.push({ criterion: name, reason: unmappedReason(name, customMetrics) });
      continue;
    }
    if (typeof options.threshold === 'number') mapping.min_scores[key] = options.threshold;
    if (options.match_type) mapping.trajectory_match = MATCH[options.match_type];
    const samples = options.judge_model_options?.num_samples;
    if (samples) mapping.judge_samples = Math.max(mapping.judge_samples ?? 0, samples);
    const texts = (options.rubrics ?? []).map((r) => r.rubric_content.text_property);
    if (key === 'rubric_based') mapping.rubrics.push(...texts);
    else if (key === 'rubric_based_tool_use') mapping.tool_use_rubrics.push(...texts);
    if (texts.length && !RUBRIC_KEYS.has(key))
      mapping.unsupported.push({ criterion: `${name}.rubrics`, reason: 'only the rubric-based criteria have rubrics' });
    mapping.unsupported.push(...ignoredOptions(name, raw[name]));
  }
  for (const name of Object.keys(customMetrics).filter((metric) => !(metric in parsed.data.criteria)))
    mapping.unsupported.push({ criterion: `custom_metrics.${name}`, reason: CUSTOM_METRIC });
  if (parsed.data.user_simulator_config) {
    const { simulator, unsupported } = mapSimulatorConfig(parsed.data.user_simulator_config);
    mapping.simulator = simulator;
    mapping.unsupported.push(...unsupported);
  }
  const mappedSettings = new Set(['criteria', 'custom_metrics', 'user_simulator_config']);
  for (const key of Object.keys(parsed.data).filter((k) => !mappedSettings.has(k)))
    mapping.unsupported.push({ criterion: key, reason: 'a setting Assay does not have' });
  return mapping;
}
