import type { CaseResultInput } from '../../db/case-result.repository';
import type { ScoringRun } from '../../db/eval-run.repository';
import { workspacePrices } from '../../db/model-price.repository';
import type { PriceOf } from '../../domain/scoring/model-prices';
import { caseCost, type TokenCounts } from '../../domain/scoring/run-cost';
import type { ActivityDeps } from '../platform/activity-deps';
import type { CasePlan } from './batch-loads';
import { sumUsages } from './case-repeat-results';
import type { Conversation } from '../../db/tables/conversation.table';
import type { JudgeUsage } from '../../db/tables/eval-run.table';

/**
 * The prices a batch costs its results with (one query): the run's judge model and, live, its pinned agent model and
 * the models its cases' simulated users asked.
 */
export function runPrices(deps: ActivityDeps, run: ScoringRun, plans: readonly CasePlan[] = []): Promise<PriceOf> {
  const simulators = plans.flatMap((plan) => liveConversations(plan).map((c) => c.simulation?.simulator_model));
  const models = [...new Set([run.judge?.model, run.mode === 'live' ? run.agent?.model : undefined, ...simulators])];
  return workspacePrices(
    deps.db,
    run.workspace_id,
    models.filter((model): model is string => !!model),
  );
}

const tokenCounts = (usage: Record<string, number> | null): TokenCounts | null =>
  usage ? { prompt_tokens: usage.prompt_tokens ?? 0, completion_tokens: usage.completion_tokens ?? 0 } : null;

// The conversations a live run made for a case: each repeat's (a played scenario's, which is not scored).
function liveConversations(plan: CasePlan): Conversation[] {
  if ('error' in plan) return plan.played ?? [];
  return plan.repeatConversations ?? [plan.conversation];
}

/** The simulated user's calls of a case's conversations, summed; null when no simulated user played them. */
function simulatorUsageOf(conversations: readonly Conversation[]): JudgeUsage | null {
  return sumUsages(conversations.flatMap((conversation) => conversation.simulation?.simulator_usage ?? []));
}

/**
 * A result with its cost: the judge's calls at the judge model's price and, in live mode, the agent's conversation at
 * the agent model's price (offline the conversation was not made by the run: no agent cost) and a simulated user's
 * calls (`simulator_usage`) at the simulator model's price, counted with the judge's (judge-like calls).
 */
export function withCost(result: CaseResultInput, run: ScoringRun, plan: CasePlan, priceOf: PriceOf): CaseResultInput {
  const judgeModel = run.judge?.model;
  const judge = judgeModel ? { model: judgeModel, price: priceOf(judgeModel), usage: result.judge_usage } : null;
  let agent = null;
  let simulator = null;
  let simulatorUsage: JudgeUsage | null = null;
  if (run.mode === 'live') {
    const conversation = 'conversation' in plan ? plan.conversation : (plan.played?.at(-1) ?? null);
    const model = conversation?.model ?? run.agent?.model ?? '';
    agent = { model, price: priceOf(model), usage: tokenCounts(conversation?.token_usage ?? null) };
    const played = liveConversations(plan);
    simulatorUsage = simulatorUsageOf(played);
    const simulatorModel = played.find((c) => c.simulation)?.simulation?.simulator_model;
    if (simulatorUsage && simulatorModel)
      simulator = { model: simulatorModel, price: priceOf(simulatorModel), usage: simulatorUsage };
  }
  return {
    ...result,
    ...(simulatorUsage ? { simulator_usage: simulatorUsage } : {}),
    cost: caseCost({ judge, agent, simulator }),
  };
}
