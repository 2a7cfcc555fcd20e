import assert from 'node:assert/strict';
import { BUILT_IN_PRICES, isPricier, lookUpPrice, priceKeysOf } from '../../domain/scoring/model-prices';
import {
  DEFAULT_JUDGE_MODELS,
  PROVIDERS,
  defaultJudgeModel,
  providerForModel,
  resolveJudge,
} from '../../domain/agent/model-provider';

const priceOf = (model: string) => lookUpPrice(model);

describe('model prices', () => {
  it('prices every default judge model and gives every built-in model a provider', () => {
    for (const provider of PROVIDERS) assert.ok(lookUpPrice(DEFAULT_JUDGE_MODELS[provider]), provider);
    for (const model of Object.keys(BUILT_IN_PRICES)) assert.ok(providerForModel(model), model);
  });

  it('prices a dated snapshot as its model and its -latest alias, case and spaces aside', () => {
    assert.deepEqual(lookUpPrice(' GPT-4o-mini-2024-07-18 '), BUILT_IN_PRICES['gpt-4o-mini']);
    assert.deepEqual(lookUpPrice('claude-3-5-haiku-20241022'), BUILT_IN_PRICES['claude-3-5-haiku-latest']);
    assert.deepEqual(priceKeysOf('gpt-4o-2024-08-06'), ['gpt-4o-2024-08-06', 'gpt-4o', 'gpt-4o-latest']);
  });

  it('prefers the workspace override and knows no price for an unknown model or an inherited property', () => {
    const overrides = new Map([['gpt-4o', { input_per_mtok: 1, output_per_mtok: 2 }]]);
    assert.deepEqual(lookUpPrice('gpt-4o', overrides), { input_per_mtok: 1, output_per_mtok: 2 });
    assert.equal(lookUpPrice('gpt-unreleased'), null);
    assert.equal(lookUpPrice('constructor'), null);
    assert.equal(lookUpPrice('__proto__'), null);
  });

  it('calls a model pricier when either its input or its output price is higher', () => {
    assert.equal(
      isPricier({ input_per_mtok: 1, output_per_mtok: 1 }, { input_per_mtok: 1, output_per_mtok: 1 }),
      false,
    );
    assert.equal(isPricier({ input_per_mtok: 1, output_per_mtok: 2 }, { input_per_mtok: 3, output_per_mtok: 1 }), true);
  });
});

describe('default judge never pricier than the agent', () => {
  it('judges a gpt-4o-mini agent with gpt-4o-mini, since gpt-4.1-mini costs more per token', () => {
    assert.ok(isPricier(BUILT_IN_PRICES['gpt-4.1-mini'], BUILT_IN_PRICES['gpt-4o-mini']));
    assert.deepEqual(resolveJudge({ agentModel: 'gpt-4o-mini', priceOf }), {
      provider: 'openai',
      model: 'gpt-4o-mini',
      source: 'agent_provider_default',
    });
  });

  it("keeps the provider's default for an agent on a pricier model", () => {
    assert.equal(defaultJudgeModel('openai', 'gpt-4o', priceOf), 'gpt-4.1-mini');
    assert.equal(defaultJudgeModel('anthropic', 'claude-sonnet-4-5', priceOf), 'claude-3-5-haiku-latest');
  });

  it('keeps the default when the agent model has no price, or without prices at all', () => {
    assert.equal(defaultJudgeModel('openai', 'ft:gpt-4o-mini:acme::x1', priceOf), 'gpt-4.1-mini');
    assert.equal(defaultJudgeModel('openai', 'gpt-4o-mini'), 'gpt-4.1-mini');
  });

  it('follows workspace prices: an agent model priced below the default is judged by itself', () => {
    const overrides = new Map([['gpt-4o', { input_per_mtok: 0.1, output_per_mtok: 0.1 }]]);
    assert.equal(
      defaultJudgeModel('openai', 'gpt-4o', (model) => lookUpPrice(model, overrides)),
      'gpt-4o',
    );
  });

  it('never lets a default judge cost more than a built-in agent model of its provider', () => {
    for (const model of Object.keys(BUILT_IN_PRICES)) {
      const provider = providerForModel(model);
      if (!provider) continue;
      const judge = lookUpPrice(defaultJudgeModel(provider, model, priceOf));
      assert.ok(judge && !isPricier(judge, BUILT_IN_PRICES[model]), model);
    }
  });

  it('leaves a fixed workspace judge model alone, however it is priced', () => {
    const judge = resolveJudge({ agentModel: 'gpt-4o-mini', workspaceJudgeModel: 'gpt-4o', priceOf });
    assert.deepEqual(judge, { provider: 'openai', model: 'gpt-4o', source: 'workspace' });
  });
});
