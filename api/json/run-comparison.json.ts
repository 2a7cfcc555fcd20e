import { z } from 'zod';
import { TRANSITIONS } from '../../domain/eval/run-comparison';
import { CASE_STATUSES } from '../../domain/scoring/case-outcome';
import { REGRESSION_MODES } from '../../domain/eval/comparison-statistics';
import { LIMITS } from '../../domain/limits';
import { intervalJson } from './statistics.json';
import { EFFICIENCY_FIGURES, type EfficiencyFigure } from '../../domain/eval/efficiency-delta';

const status = z.enum(CASE_STATUSES);

const pairedDelta = z
  .object({ delta: z.number(), interval: intervalJson, p_value: z.number(), pairs: z.number().int() })
  .nullable()
  .describe(
    `paired bootstrap (${LIMITS.bootstrapResamples} resamples, fewer past ${LIMITS.bootstrapDraws} values drawn; seeded from both run ids): the mean of run − baseline, its 95% percentile interval and a two-sided p-value; null without pairs`,
  );

const argumentChange = z.object({
  argument: z.string(),
  baseline: z.unknown().optional(),
  run: z.unknown().optional(),
});
const toolArgs = z.record(z.string(), z.unknown());
const trajectoryDiffJson = z.object({
  rows: z.array(
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('matched'),
        tool_name: z.string(),
        baseline_index: z.number().int(),
        run_index: z.number().int(),
        argument_changes: z.array(argumentChange),
      }),
      z.object({
        kind: z.literal('missing'),
        tool_name: z.string(),
        baseline_index: z.number().int(),
        tool_args: toolArgs,
      }),
      z.object({ kind: z.literal('extra'), tool_name: z.string(), run_index: z.number().int(), tool_args: toolArgs }),
    ]),
  ),
  matched: z.number().int(),
  changed: z.number().int().describe('matched pairs whose arguments differ'),
  missing: z.number().int(),
  extra: z.number().int(),
});

const comparisonStatisticsJson = z
  .object({
    paired_cases: z.number().int().describe('cases both runs scored (not skipped)'),
    mcnemar: z
      .object({ worse: z.number().int(), better: z.number().int(), p_value: z.number() })
      .describe(
        'exact McNemar on pass/fail: passed in the baseline only (worse), in the run only (better), two-sided p',
      ),
    pass_rate_delta: pairedDelta,
    criteria: z.record(z.string(), pairedDelta).describe('per criterion, over the cases where it applied in both runs'),
  })
  .describe('paired tests over the cases both runs scored');

const regressionJson = z
  .object({
    mode: z.enum(REGRESSION_MODES),
    alpha: z.number(),
    regressed: z.number().int(),
    significant: z.boolean().describe('McNemar p < alpha with more cases worse than better'),
    failed: z.boolean().describe('the gate fails: `any` with a regressed case, `significant` when significant'),
  })
  .describe('the gate verdict on regressions under fail_on_regression and alpha');
const delta = z.object({ run: z.number().nullable(), baseline: z.number().nullable(), delta: z.number().nullable() });
const counts = Object.fromEntries(TRANSITIONS.map((transition) => [transition, z.number().int()])) as Record<
  (typeof TRANSITIONS)[number],
  z.ZodNumber
>;

const figures = <T extends z.ZodType>(value: T) =>
  z.object(Object.fromEntries(EFFICIENCY_FIGURES.map((figure) => [figure, value])) as Record<EfficiencyFigure, T>);

const efficiencyComparisonJson = z
  .object({
    cases: z.number().int().describe('cases both runs scored with efficiency figures'),
    ...figures(delta).shape,
  })
  .describe(
    "informational only (never affects verdicts or the gate): each efficiency figure's mean in both runs and run − baseline, over the cases both runs scored where both record the figure (null where none does)",
  );

/** One case of a comparison: its transition, both statuses (null where that run has no result) and score deltas. */
export const caseComparisonJson = z.object({
  case_id: z.string(),
  case_name: z.string(),
  transition: z.enum(TRANSITIONS),
  status: status.nullable(),
  baseline_status: status.nullable(),
  criteria: z.record(z.string(), delta),
  first_failed_turn: z
    .object({ run: z.number().int().nullable(), baseline: z.number().int().nullable() })
    .optional()
    .describe(
      'only for a case scored by turns in either run: the 0-based turn that failed first in each run (null: no turn failed, or that run scored it as one turn or has no result)',
    ),
  trajectory_diff: trajectoryDiffJson
    .nullable()
    .optional()
    .describe(
      "regressed cases only: the baseline's calls aligned against the run's (matched pairs with argument changes, missing, extra), read from each run's tool_trajectory_avg_score alignment; null when either run has none (no expected_trajectory)",
    ),
  efficiency_delta: figures(z.number().nullable())
    .nullable()
    .describe(
      'informational only: run − baseline of tool_calls, model_calls, total_tokens and latency_ms (null where either run does not record the figure); null unless both runs scored the case with efficiency figures',
    ),
  flaky: z.boolean().describe('the case passed in some repeats of the run and not in others (flip rate above zero)'),
  verdict: z
    .enum(['regressed', 'improved', 'flaky'])
    .nullable()
    .describe(
      "`flaky` when the case flipped across the run's repeats, else `regressed` or `improved` (a fixed case); null otherwise",
    ),
});

/**
 * A run compared with a baseline: counts of each transition over all cases, pass rates (passed ÷ cases with a
 * result), criterion means (over the results where the criterion applied), and one page of `cases`.
 */
export const runComparisonJson = z.object({
  run_id: z.string(),
  baseline_run_id: z.string(),
  summary: z.object({
    ...counts,
    pass_rate: z.object({ run: z.number(), baseline: z.number(), delta: z.number() }),
    criteria: z.record(z.string(), delta),
  }),
  verdicts: z
    .object({ regressed: z.number().int(), improved: z.number().int(), flaky: z.number().int() })
    .describe('cases by verdict over all cases (a flaky case counts as flaky only)'),
  statistics: comparisonStatisticsJson,
  regression: regressionJson,
  efficiency: efficiencyComparisonJson,
  cases: z.array(caseComparisonJson),
  next_cursor: z.string().nullable(),
});
