import type { CaseResultInput } from '../../db/case-result.repository';
import type { ScoringRun } from '../../db/eval-run.repository';
import { workspacePrices } from '../../db/model-price.repository';
import type { PriceOf } from '../../domain/scoring/model-prices';
import { caseCost, type TokenCounts } from '../../domain/scoring/run-cost';
import type { ActivityDeps } from '../platform/activity-deps';
import type { CasePlan } from './batch-loads';

/** The prices a batch costs its results with (one query): the run's judge model and, live, its pinned agent model. */
export function runPrices(deps: ActivityDeps, run: ScoringRun): Promise<PriceOf> {
  const models = [run.judge?.model, run.mode === 'live' ? run.agent?.model : undefined];
  return workspacePrices(
    deps.db,
    run.workspace_id,
    models.filter((model): model is string => !!model),
  );
}

const tokenCounts = (usage: Record<string, number> | null): TokenCounts | null =>
  usage ? { prompt_tokens: usage.prompt_tokens ?? 0, completion_tokens: usage.completion_tokens ?? 0 } : null;

/**
 * A result with its cost: the judge's calls at the judge model's price and, in live mode, the agent's conversation at
 * the agent model's price (offline the conversation was not made by the run: no agent cost).
 */
export function withCost(result: CaseResultInput, run: ScoringRun, plan: CasePlan, priceOf: PriceOf): CaseResultInput {
  const judgeModel = run.judge?.model;
  const judge = judgeModel ? { model: judgeModel, price: priceOf(judgeModel), usage: result.judge_usage } : null;
  let agent = null;
  if (run.mode === 'live') {
    const conversation = 'conversation' in plan ? plan.conversation : null;
    const model = conversation?.model ?? run.agent?.model ?? '';
    agent = { model, price: priceOf(model), usage: tokenCounts(conversation?.token_usage ?? null) };
  }
  return { ...result, cost: caseCost({ judge, agent }) };
}
