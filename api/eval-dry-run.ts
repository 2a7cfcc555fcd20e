import { z } from 'zod';
import { judgedModelOf } from '../db/agent.repository';
import { workspacePrices } from '../db/model-price.repository';
import { resolveWorkspaceJudge } from '../db/judge-resolution';
import { tallyJudgedCases } from '../db/run-cases.repository';
import type { EvalSet } from '../db/tables/eval-set.table';
import { estimateJudgeWork, estimateSimulatorWork, estimatedJudgeUsd } from '../domain/scoring/judge-estimate';
import { resolveSimulatorSettings } from '../domain/eval/simulator-settings';
import type { AppDeps } from './app-deps';
import { requireAgent } from './lookups';

/** The answer of a dry run: what the run would do, and an estimate of what its judge would cost. */
export const dryRunJson = z.object({
  data: z.object({
    dry_run: z.literal(true),
    cases: z.number().describe('cases the run would score'),
    judge_calls: z.number().describe('judge calls when every reply is usable (samples × repeats per judged criterion)'),
    judge_model: z.string().nullable().describe('the judge the run would resolve; null when none can be'),
    simulator_calls: z
      .number()
      .describe(
        'live: simulated-user calls at most (scenario cases × (simulator.max_turns − 1) × repeats; a frozen ' +
          'simulation or an early stop makes fewer); 0 offline',
      ),
    estimated_cost: z.object({
      judge_usd: z
        .number()
        .nullable()
        .describe('judge and simulated-user calls; null when the judge (or simulator) model has no price'),
      prompt_tokens: z.number(),
      completion_tokens: z.number(),
    }),
  }),
});

/**
 * What a run of `set` would do, read from Postgres only (nothing is stored, no workflow starts): its cases, its judge
 * calls and, at the judge model's price, their estimated cost (see domain/scoring/judge-estimate.ts).
 */
export async function dryRunOf(
  deps: AppDeps,
  workspaceId: string,
  set: EvalSet,
  run: { agent: string; samples: number; repeats: number; live: boolean; explicit: Record<string, string> | null },
): Promise<z.infer<typeof dryRunJson>> {
  const scope = { evalSetId: set.id, asOf: new Date(), retryOf: null };
  const agent = await requireAgent(deps.db, workspaceId, run.agent);
  const [tally, judge] = await Promise.all([
    tallyJudgedCases(deps.db, scope, run.live ? null : { agentId: agent.id, explicit: run.explicit }),
    judgedModelOf(deps.db, agent).then((model) => resolveWorkspaceJudge(deps.db, workspaceId, model)),
  ]);
  const estimate = estimateJudgeWork(tally, run.samples, run.repeats);
  const judgeModel = 'error' in judge ? null : judge.model;
  const simulatorSettings = resolveSimulatorSettings(set.simulator);
  const simulated = estimateSimulatorWork(
    run.live ? (tally.scenario_cases ?? 0) : 0,
    simulatorSettings.max_turns,
    run.repeats,
  );
  const simulatorModel = simulatorSettings.model ?? judgeModel;
  const models = [judgeModel, simulatorModel].filter((model): model is string => model !== null);
  const priceOf = await workspacePrices(deps.db, workspaceId, models);
  const price = judgeModel ? priceOf(judgeModel) : null;
  const judgeUsd = estimate.judge_calls === 0 ? 0 : estimatedJudgeUsd(estimate, price);
  const simulatorUsd =
    simulated.judge_calls === 0 ? 0 : estimatedJudgeUsd(simulated, simulatorModel ? priceOf(simulatorModel) : null);
  return {
    data: {
      dry_run: true,
      cases: tally.cases,
      judge_calls: estimate.judge_calls,
      judge_model: judgeModel,
      simulator_calls: simulated.judge_calls,
      estimated_cost: {
        judge_usd: judgeUsd === null || simulatorUsd === null ? null : judgeUsd + simulatorUsd,
        prompt_tokens: estimate.prompt_tokens + simulated.prompt_tokens,
        completion_tokens: estimate.completion_tokens + simulated.completion_tokens,
      },
    },
  };
}
