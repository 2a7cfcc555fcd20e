/** A model's price in USD per million tokens, input (prompt) and output (completion). */
export interface ModelPrice {
  input_per_mtok: number;
  output_per_mtok: number;
}

/** Looks a model's price up (the workspace's override first, then the built-in table); null when it has none. */
export type PriceOf = (model: string) => ModelPrice | null;

const price = (input_per_mtok: number, output_per_mtok: number): ModelPrice => ({ input_per_mtok, output_per_mtok });

/**
 * Built-in list prices (standard tier, no caching or batch discount; the lowest context tier where a model has
 * several), in USD per million tokens, as published on each provider's pricing page in August 2025:
 * openai.com/api/pricing, anthropic.com/pricing, ai.google.dev/gemini-api/docs/pricing, mistral.ai/pricing,
 * api-docs.deepseek.com/quick_start/pricing, docs.x.ai/docs/models and openrouter.ai/models (which passes the
 * upstream price through). One entry per model the model→provider rules know and teams use, the default judges
 * included; a workspace overrides any entry or adds a model (`PUT /api/workspaces/current/model-prices/{model}`).
 */
export const BUILT_IN_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'gpt-5': price(1.25, 10),
  'gpt-5-mini': price(0.25, 2),
  'gpt-5-nano': price(0.05, 0.4),
  'gpt-4.1': price(2, 8),
  'gpt-4.1-mini': price(0.4, 1.6),
  'gpt-4.1-nano': price(0.1, 0.4),
  'gpt-4o': price(2.5, 10),
  'gpt-4o-mini': price(0.15, 0.6),
  'gpt-4-turbo': price(10, 30),
  'gpt-3.5-turbo': price(0.5, 1.5),
  o1: price(15, 60),
  o3: price(2, 8),
  'o3-mini': price(1.1, 4.4),
  'o4-mini': price(1.1, 4.4),
  'claude-opus-4-1': price(15, 75),
  'claude-opus-4-0': price(15, 75),
  'claude-sonnet-4-5': price(3, 15),
  'claude-sonnet-4-0': price(3, 15),
  'claude-3-7-sonnet-latest': price(3, 15),
  'claude-3-5-sonnet-latest': price(3, 15),
  'claude-3-5-haiku-latest': price(0.8, 4),
  'claude-3-haiku-20240307': price(0.25, 1.25),
  'gemini-2.5-pro': price(1.25, 10),
  'gemini-2.5-flash': price(0.3, 2.5),
  'gemini-2.5-flash-lite': price(0.1, 0.4),
  'gemini-2.0-flash': price(0.1, 0.4),
  'gemini-2.0-flash-lite': price(0.075, 0.3),
  'gemini-1.5-pro': price(1.25, 5),
  'gemini-1.5-flash': price(0.075, 0.3),
  'mistral-large-latest': price(2, 6),
  'mistral-medium-latest': price(0.4, 2),
  'mistral-small-latest': price(0.1, 0.3),
  'codestral-latest': price(0.3, 0.9),
  'magistral-medium-latest': price(2, 5),
  'magistral-small-latest': price(0.5, 1.5),
  'ministral-8b-latest': price(0.1, 0.1),
  'ministral-3b-latest': price(0.04, 0.04),
  'pixtral-large-latest': price(2, 6),
  'devstral-small-latest': price(0.1, 0.3),
  'open-mistral-nemo': price(0.15, 0.15),
  'deepseek-chat': price(0.27, 1.1),
  'deepseek-reasoner': price(0.55, 2.19),
  'grok-4': price(3, 15),
  'grok-3': price(3, 15),
  'grok-3-mini': price(0.3, 0.5),
  'openai/gpt-4o': price(2.5, 10),
  'openai/gpt-4o-mini': price(0.15, 0.6),
  'openai/gpt-4.1-mini': price(0.4, 1.6),
  'anthropic/claude-sonnet-4': price(3, 15),
  'anthropic/claude-3.5-haiku': price(0.8, 4),
  'google/gemini-2.5-flash': price(0.3, 2.5),
  'meta-llama/llama-3.3-70b-instruct': price(0.13, 0.4),
});

/** The key a model is priced under: trimmed and lower-cased, as the model→provider rules read ids. */
export function priceKey(model: string): string {
  return model.trim().toLowerCase();
}

// A dated snapshot (`gpt-4o-2024-08-06`, `claude-3-5-haiku-20241022`) is priced as its undated model.
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/** The keys a model is priced under, in order: its exact id, the id without a snapshot date, its `-latest` alias. */
export function priceKeysOf(model: string): string[] {
  const exact = priceKey(model);
  const undated = exact.replace(SNAPSHOT_SUFFIX, '');
  return [...new Set([exact, undated, `${undated}-latest`])];
}

/** Prices a model from the workspace's overrides, else the built-in table, by `priceKeysOf`; null when none knows it. */
export function lookUpPrice(model: string, overrides: ReadonlyMap<string, ModelPrice> = new Map()): ModelPrice | null {
  for (const key of priceKeysOf(model)) {
    const found = overrides.get(key) ?? (Object.hasOwn(BUILT_IN_PRICES, key) ? BUILT_IN_PRICES[key] : undefined);
    if (found) return found;
  }
  return null;
}

/** True when `model` costs more than `than` per token in either direction (input or output). */
export function isPricier(model: ModelPrice, than: ModelPrice): boolean {
  return model.input_per_mtok > than.input_per_mtok || model.output_per_mtok > than.output_per_mtok;
}
