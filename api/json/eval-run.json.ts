import { z } from 'zod';
import type { CaseResultView } from '../../db/case-result.repository';
import type { EvalRun } from '../../db/tables/eval-run.table';
import { LIMITS } from '../../domain/limits';
import { CASE_STATUSES } from '../../domain/scoring/case-outcome';
import { casePassAtK } from '../../domain/scoring/run-intervals';
import { caseTurnsResultFields, toCaseTurnsJson } from './case-turn-result.json';
import { mockReportJson } from './tool-mock.json';
import { intervalJson, passAtKJson } from './statistics.json';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

const criterionJson = z.object({
  score: z.number(),
  min_score: z.number().nullable(),
  passed: z.boolean(),
  applicable: z.boolean(),
  unscored: z
    .boolean()
    .optional()
    .describe('the judge gave no usable verdict after its retries: neither passed nor failed (detail.reason says why)'),
  detail: z.unknown(),
});

const caseStatusJson = z.enum(CASE_STATUSES);

const judgeCacheJson = z.object({ hits: z.number(), misses: z.number() });
const usd = z.number().nullable();
const unpricedModels = z.array(z.string()).describe('models with no price (a part they make is null)');

/** What a run cost in USD: null parts could not be priced (`unpriced_models`) or do not apply (agent, offline). */
const runCostJson = z.object({ judge_usd: usd, agent_usd: usd, total_usd: usd, unpriced_models: unpricedModels });

/** What a case cost in USD: the judge's calls, and the agent's conversation in live mode (null offline). */
const caseCostJson = z.object({ judge_usd: usd, agent_usd: usd, unpriced_models: unpricedModels });

/** The API shape of an eval run. */
export const evalRunJson = z.object({
  id: z.string(),
  agent_id: z.string(),
  eval_set_id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
  mode: z.string(),
  run_selection: z.string(),
  conversations: z.record(z.string(), z.string()).nullable(),
  min_scores: z.record(z.string(), z.number()),
  judge_samples: z.number(),
  repeats: z.number().describe('times each case is scored'),
  min_repeat_pass: z.number().describe('repeats a case must pass in to pass (default: all of them)'),
  judge: z.object({ provider: z.string(), model: z.string(), source: z.string() }).nullable(),
  agent: z.object({ version: z.number(), model: z.string(), provider: z.string() }).nullable(),
  retry_of: z.string().nullable().describe('the run whose error cases this run re-scores (retry-errors)'),
  no_cache: z.boolean().describe('the run judged every sample afresh, without the judge verdict cache'),
  total_cases: z.number().nullable(),
  scored_cases: z.number(),
  summary: z
    .object({
      pass_rate: z.number(),
      avg_score: z
        .record(z.string(), z.number().nullable())
        .describe('every criterion key; the mean over the cases where it applied, null where it never applied'),
      counts: z.object({
        total: z.number(),
        passed: z.number(),
        failed: z.number(),
        error: z.number(),
        skipped: z
          .number()
          .optional()
          .describe('conversation scenarios not scored (left out of pass_rate); present only when some were'),
      }),
      unscored: z
        .object({ cases: z.number(), criteria: z.record(z.string(), z.number()) })
        .optional()
        .describe(
          'cases with an unscored criterion (the judge gave no usable verdict), and per criterion; only when some',
        ),
      cost: runCostJson.optional().describe('absent on runs summarised before costs were kept'),
      not_scored: z.number().optional().describe('cancelled runs: cases that got no result'),
      judge_cache: judgeCacheJson.optional().describe('judge samples the verdict cache answered, and those it did not'),
      flaky: z
        .array(z.object({ case_id: z.string(), name: z.string(), flip_rate: z.number() }))
        .optional()
        .describe('runs of several repeats: cases that passed in some repeats and not in others, most flaky first'),
      flaky_count: z.number().optional().describe('runs of several repeats: how many cases were flaky'),
      pass_rate_interval: intervalJson
        .nullable()
        .optional()
        .describe('the Wilson 95% interval of pass_rate (null without judged cases)'),
      avg_score_interval: z
        .record(z.string(), intervalJson.nullable())
        .optional()
        .describe(
          `a 95% bootstrap percentile interval of each avg_score mean (${LIMITS.bootstrapResamples} resamples, fewer past ${LIMITS.bootstrapDraws} values drawn; seeded from the run id: the same run gives the same interval)`,
        ),
      pass_at_k: z
        .array(passAtKJson)
        .optional()
        .describe(
          'runs of several repeats: for k = 1 … repeats, the mean over cases of pass@k = 1 − C(n−c,k)/C(n,k) and pass^k = C(c,k)/C(n,k)',
        ),
    })
    .nullable(),
  error: z.string().nullable(),
  tags: z.array(z.string()),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});

/**
 * One case result: `status` is passed, failed or error (`passed` is status === 'passed'); `criteria` holds an entry
 * per criterion keyed by criterion key (`safety` included) with score, min_score (null for safety), passed,
 * applicable and detail; `error` says why a case could not be scored.
 */
export const caseResultJson = z.object({
  case_id: z.string(),
  case_name: z.string(),
  status: caseStatusJson,
  passed: z.boolean(),
  conversation_id: z.string().nullable(),
  session_input: z.unknown(),
  expected_final_response: z.string().nullable(),
  actual_final_response: z.string().nullable(),
  criteria: z.record(z.string(), criterionJson),
  error: z
    .string()
    .nullable()
    .describe(
      `why the case could not be scored: a bound it broke names its limit, e.g. an LLM provider answer over ` +
        `${LIMITS.providerResponseBytes} bytes (limit providerResponseBytes) is \`response_too_large\``,
    ),
  skip_reason: z.string().nullable().describe('a `skipped` case (a conversation scenario): why it was not scored'),
  judge_usage: z
    .object({ calls: z.number(), prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() })
    .nullable(),
  simulator_usage: z
    .object({ calls: z.number(), prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() })
    .nullable()
    .describe("a scenario case of a live run: the simulated user's calls over its repeats (cache hits cost none)"),
  judge_cache: judgeCacheJson.describe('judge samples the verdict cache answered (no call made), and those it did not'),
  repeats: z
    .array(
      z.object({
        repeat: z.number(),
        status: caseStatusJson,
        criteria: z.record(z.string(), criterionJson).optional(),
        conversation_id: z.string().optional(),
      }),
    )
    .nullable()
    .describe("runs of several repeats: each repeat's outcome, in order (null for one repeat)"),
  flip_rate: z
    .number()
    .nullable()
    .describe('min(repeats passed, repeats not passed) ÷ repeats: 0 stable, 0.5 an even split (null for one repeat)'),
  pass_at_k: z
    .array(passAtKJson)
    .nullable()
    .describe('runs of several repeats: pass@k and pass^k of the case for k = 1 … repeats (null for one repeat)'),
  cost: caseCostJson.nullable(),
  efficiency: z
    .object({
      tool_calls: z.number(),
      model_calls: z.number().nullable(),
      total_tokens: z.number().nullable(),
      latency_ms: z.number().nullable(),
      turns: z.array(z.object({ turn: z.number(), tool_calls: z.number() })),
    })
    .nullable()
    .describe("informational, never pass/fail: the scored conversation's tool calls, model calls, tokens, latency"),
  mocks: mockReportJson
    .nullable()
    .describe('a live case run with tool mocks: the calls no mock matched, and the mocks not used up'),
  ...caseTurnsResultFields,
  scored_at: z.string(),
});

/** The API shape of an eval run; `summary` is set once the run is completed. */
export function toEvalRunJson(row: EvalRun): z.infer<typeof evalRunJson> {
  return {
    id: row.id,
    agent_id: row.agent_id,
    eval_set_id: row.eval_set_id,
    status: row.status,
    mode: row.mode,
    run_selection: row.run_selection,
    conversations: row.conversations,
    min_scores: row.min_scores,
    judge_samples: row.judge_samples,
    repeats: row.repeats,
    min_repeat_pass: row.min_repeat_pass ?? row.repeats,
    judge: row.judge,
    agent: row.agent,
    retry_of: row.retry_of,
    no_cache: row.no_cache,
    total_cases: row.total_cases,
    scored_cases: row.scored_cases,
    summary: row.summary,
    error: row.error,
    tags: row.tags,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
  };
}

/** The API shape of a case result. */
export function toCaseResultJson(row: CaseResultView): z.infer<typeof caseResultJson> {
  return {
    case_id: row.case_id,
    case_name: row.case_name,
    status: row.status,
    passed: row.status === 'passed',
    conversation_id: row.conversation_id,
    session_input: row.session_input ?? null,
    expected_final_response: row.expected_final_response,
    actual_final_response: row.actual_final_response,
    criteria: row.criteria as z.infer<typeof caseResultJson>['criteria'],
    error: row.error,
    skip_reason: row.skip_reason,
    judge_usage: row.judge_usage,
    simulator_usage: row.simulator_usage ?? null,
    judge_cache: { hits: row.judge_cache_hits, misses: row.judge_cache_misses },
    repeats: row.repeats as z.infer<typeof caseResultJson>['repeats'],
    flip_rate: row.flip_rate,
    pass_at_k: row.repeats ? casePassAtK(row.repeats.map((repeat) => repeat.status)) : null,
    cost: row.cost,
    efficiency: row.efficiency ?? null,
    mocks: row.mocks ?? null,
    ...toCaseTurnsJson(row.turns),
    scored_at: row.created_at.toISOString(),
  };
}
