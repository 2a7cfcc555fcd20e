import type { ModelPrice } from './model-prices';

/** Tokens of one or more model calls, as providers report them. */
export interface TokenCounts {
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * What a case cost: the judge's calls and (live mode) the agent's conversation, in USD. `agent_usd` is null offline
 * (the conversation was not made by the run); either part is null when its model has no price, and that model is
 * named in `unpriced_models`.
 */
export interface CaseCost {
  judge_usd: number | null;
  agent_usd: number | null;
  unpriced_models: string[];
}

/** A run's cost: the sum over its cases; a part is null when some case could not price it (see `summarizeCost`). */
export interface RunCost {
  judge_usd: number | null;
  agent_usd: number | null;
  total_usd: number | null;
  unpriced_models: string[];
}

/** One priced part of a case: the model used, its price (null: none known) and its token usage (null: no calls). */
export interface PricedUsage {
  model: string;
  price: ModelPrice | null;
  usage: TokenCounts | null;
}

/** USD of `usage` at `price`: prompt tokens at the input price plus completion tokens at the output price. */
export function usdOf(price: ModelPrice, usage: TokenCounts): number {
  return (usage.prompt_tokens * price.input_per_mtok + usage.completion_tokens * price.output_per_mtok) / 1_000_000;
}

const tokensOf = (usage: TokenCounts | null): number => (usage ? usage.prompt_tokens + usage.completion_tokens : 0);

function partCost(part: PricedUsage | null, unpriced: Set<string>): number | null {
  if (!part) return null;
  if (tokensOf(part.usage) === 0) return 0;
  if (!part.price) {
    unpriced.add(part.model);
    return null;
  }
  return usdOf(part.price, part.usage as TokenCounts);
}

/**
 * A case's cost: a part without usage costs 0 (no calls made, whatever the price); `agent` is null offline. A
 * simulated user's calls (`simulator`) are judge-like: they add to `judge_usd`.
 */
export function caseCost(input: {
  judge: PricedUsage | null;
  agent: PricedUsage | null;
  simulator?: PricedUsage | null;
}): CaseCost {
  const unpriced = new Set<string>();
  const judged = partCost(input.judge, unpriced) ?? (input.judge ? null : 0);
  const simulated = input.simulator ? partCost(input.simulator, unpriced) : 0;
  const judge_usd = judged === null || simulated === null ? null : judged + simulated;
  const agent_usd = partCost(input.agent, unpriced);
  return { judge_usd, agent_usd, unpriced_models: [...unpriced] };
}

const sumOrNull = (values: Array<number | null>): number | null =>
  values.some((value) => value === null) ? null : values.reduce<number>((sum, value) => sum + (value ?? 0), 0);

/**
 * Sums the costs of a run's cases (results stored before costs were kept count as none): `judge_usd` is null when
 * some case's is; `agent_usd` is null offline (no case has one) or when some live case's agent model has no price;
 * `total_usd` is their sum, null when any model is unpriced.
 */
export function summarizeCost(costs: ReadonlyArray<CaseCost | null | undefined>): RunCost {
  const known = costs.filter((cost): cost is CaseCost => !!cost);
  const unpriced_models = [...new Set(known.flatMap((cost) => cost.unpriced_models))].sort();
  const judge_usd = sumOrNull(known.map((cost) => cost.judge_usd));
  const agentUnpriced = known.some((cost) => cost.agent_usd === null && cost.unpriced_models.length > 0);
  const agentCosts = known.map((cost) => cost.agent_usd).filter((usd): usd is number => usd !== null);
  const agent_usd = agentUnpriced || agentCosts.length === 0 ? null : sumOrNull(agentCosts);
  const total_usd = unpriced_models.length > 0 || judge_usd === null ? null : judge_usd + (agent_usd ?? 0);
  return { judge_usd, agent_usd, total_usd, unpriced_models };
}
