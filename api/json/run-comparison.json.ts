import { z } from 'zod';
import { TRANSITIONS } from '../../domain/eval/run-comparison';
import { CASE_STATUSES } from '../../domain/scoring/case-outcome';

const status = z.enum(CASE_STATUSES);
const delta = z.object({ run: z.number().nullable(), baseline: z.number().nullable(), delta: z.number().nullable() });
const counts = Object.fromEntries(TRANSITIONS.map((transition) => [transition, z.number().int()])) as Record<
  (typeof TRANSITIONS)[number],
  z.ZodNumber
>;

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
  cases: z.array(caseComparisonJson),
  next_cursor: z.string().nullable(),
});
