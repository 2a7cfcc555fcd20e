import { isPricier, type PriceOf } from '../scoring/model-prices';

/** Every LLM provider an agent or judge model can resolve to. */
export const PROVIDERS = ['openai', 'anthropic', 'google', 'mistral', 'deepseek', 'xai', 'openrouter'] as const;

/** An LLM provider key, as used for the workspace's provider integration. */
export type Provider = (typeof PROVIDERS)[number];

/** The provider every model id containing a slash resolves to. */
export const AGGREGATOR_PROVIDER: Provider = 'openrouter';

/** Model families by id prefix (matched case-insensitively); ids with a slash go to the aggregator first. */
export const MODEL_FAMILIES: ReadonlyArray<{ pattern: RegExp; provider: Provider }> = [
  { pattern: /^(gpt-|chatgpt-|ft:gpt-|o[134](-|$))/, provider: 'openai' },
  { pattern: /^claude-/, provider: 'anthropic' },
  { pattern: /^gemini-/, provider: 'google' },
  { pattern: /^(open-)?(mistral|mixtral|codestral|magistral|ministral|pixtral|devstral)-/, provider: 'mistral' },
  { pattern: /^deepseek-/, provider: 'deepseek' },
  { pattern: /^grok-/, provider: 'xai' },
];

/** The cheaper model the system judges with when the workspace fixes none, per provider of the agent. */
export const DEFAULT_JUDGE_MODELS: Readonly<Record<Provider, string>> = Object.freeze({
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-3-5-haiku-latest',
  google: 'gemini-2.0-flash',
  mistral: 'mistral-small-latest',
  deepseek: 'deepseek-chat',
  xai: 'grok-3-mini',
  openrouter: 'openai/gpt-4o-mini',
});

/** Default OpenAI-compatible base URL per provider, used when the integration sets none. */
export const PROVIDER_BASE_URLS: Readonly<Record<Provider, string>> = Object.freeze({
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1/',
  google: 'https://generativelanguage.googleapis.com/v1beta/openai/',
  mistral: 'https://api.mistral.ai/v1',
  deepseek: 'https://api.deepseek.com/v1',
  xai: 'https://api.x.ai/v1',
  openrouter: 'https://openrouter.ai/api/v1',
});

/** The judge a run uses: its provider (whose integration supplies the credential) and model id. */
export interface ResolvedJudge {
  provider: Provider;
  model: string;
  source: 'workspace' | 'agent_provider_default';
}

/** Input of `resolveJudge`; an empty or blank workspace judge model means none is fixed. */
export interface JudgeInput {
  agentModel: string;
  workspaceJudgeModel?: string | null;
  /** Prices (the workspace's overrides, else the built-in table): the default judge is never pricier than the agent. */
  priceOf?: PriceOf;
}

/**
 * The provider's default judge model, unless it costs more than the agent's own model per input or output token:
 * then the agent's model judges. When either price is unknown the default stands.
 */
export function defaultJudgeModel(provider: Provider, agentModel: string, priceOf?: PriceOf): string {
  const fallback = DEFAULT_JUDGE_MODELS[provider];
  const judgePrice = priceOf?.(fallback);
  const agentPrice = priceOf?.(agentModel);
  return judgePrice && agentPrice && isPricier(judgePrice, agentPrice) ? agentModel.trim() : fallback;
}

/** Derives the provider from a model id by family; any id with a slash is the aggregator; unknown → null. */
export function providerForModel(modelId: string): Provider | null {
  const id = modelId.trim().toLowerCase();
  if (id === '') return null;
  if (id.includes('/')) return AGGREGATOR_PROVIDER;
  return MODEL_FAMILIES.find((family) => family.pattern.test(id))?.provider ?? null;
}

/**
 * Resolves the judge: a fixed workspace judge model brings its own provider (the agent's is ignored); otherwise
 * the agent's provider with that provider's default cheaper judge model (`defaultJudgeModel`). The error names the model when no
 * provider can be derived from it.
 */
export function resolveJudge(input: JudgeInput): ResolvedJudge | { error: string } {
  const fixed = input.workspaceJudgeModel?.trim() ?? '';
  if (fixed !== '') {
    const provider = providerForModel(fixed);
    if (!provider) return { error: `cannot derive a provider from the workspace judge model "${fixed}"` };
    return { provider, model: fixed, source: 'workspace' };
  }
  const provider = providerForModel(input.agentModel);
  if (!provider) return { error: `cannot derive a provider from the agent model "${input.agentModel.trim()}"` };
  const model = defaultJudgeModel(provider, input.agentModel, input.priceOf);
  return { provider, model, source: 'agent_provider_default' };
}
