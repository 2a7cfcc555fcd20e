import assert from 'node:assert/strict';
import {
  DEFAULT_JUDGE_MODELS,
  PROVIDER_BASE_URLS,
  PROVIDERS,
  providerForModel,
  resolveJudge,
} from '../../domain/agent/model-provider';

describe('model provider', () => {
  describe('providerForModel', () => {
    const cases: Array<[string, string]> = [
      ['gpt-4o', 'openai'],
      ['gpt-4.1-mini', 'openai'],
      ['chatgpt-4o-latest', 'openai'],
      ['o1', 'openai'],
      ['o3-mini', 'openai'],
      ['o4-mini-2025-04-16', 'openai'],
      ['claude-3-5-sonnet-latest', 'anthropic'],
      ['gemini-2.5-pro', 'google'],
      ['mistral-large-latest', 'mistral'],
      ['mixtral-8x7b', 'mistral'],
      ['codestral-latest', 'mistral'],
      ['magistral-medium-latest', 'mistral'],
      ['deepseek-reasoner', 'deepseek'],
      ['grok-4', 'xai'],
      ['GPT-4o', 'openai'],
    ];
    for (const [model, provider] of cases) {
      it(`derives ${provider} from ${model}`, () => assert.equal(providerForModel(model), provider));
    }

    it('resolves any id with a slash to the openrouter aggregator, whatever the family', () => {
      assert.equal(providerForModel('openai/gpt-4o-mini'), 'openrouter');
      assert.equal(providerForModel('anthropic/claude-3.5-sonnet'), 'openrouter');
      assert.equal(providerForModel('meta-llama/llama-3.1-70b-instruct'), 'openrouter');
    });

    it('returns null for an unknown family or an empty id', () => {
      assert.equal(providerForModel('llama-3.1-70b'), null);
      assert.equal(providerForModel('o2-mini'), null);
      assert.equal(providerForModel('gpt4'), null);
      assert.equal(providerForModel('  '), null);
    });
  });

  it('has a default judge model and a base URL for every provider', () => {
    for (const provider of PROVIDERS) {
      assert.ok(DEFAULT_JUDGE_MODELS[provider]);
      assert.match(PROVIDER_BASE_URLS[provider], /^https:\/\//);
    }
    assert.equal(providerForModel(DEFAULT_JUDGE_MODELS.openrouter), 'openrouter');
  });

  describe('resolveJudge', () => {
    it("judges with the agent provider's cheaper default model when the workspace fixes none", () => {
      assert.deepEqual(resolveJudge({ agentModel: 'claude-sonnet-4-5' }), {
        provider: 'anthropic',
        model: 'claude-3-5-haiku-latest',
        source: 'agent_provider_default',
      });
      assert.deepEqual(resolveJudge({ agentModel: 'gpt-4o', workspaceJudgeModel: '  ' }), {
        provider: 'openai',
        model: DEFAULT_JUDGE_MODELS.openai,
        source: 'agent_provider_default',
      });
    });

    it('uses the workspace judge model with its own provider and ignores the agent provider', () => {
      assert.deepEqual(resolveJudge({ agentModel: 'gpt-4o', workspaceJudgeModel: 'gemini-2.0-flash' }), {
        provider: 'google',
        model: 'gemini-2.0-flash',
        source: 'workspace',
      });
      assert.deepEqual(resolveJudge({ agentModel: 'unknown-model', workspaceJudgeModel: 'openai/gpt-4o' }), {
        provider: 'openrouter',
        model: 'openai/gpt-4o',
        source: 'workspace',
      });
    });

    it('uses the openrouter default judge for an agent on an aggregator model', () => {
      const judge = resolveJudge({ agentModel: 'meta-llama/llama-3.1-70b-instruct', workspaceJudgeModel: null });
      assert.deepEqual(judge, {
        provider: 'openrouter',
        model: 'openai/gpt-4o-mini',
        source: 'agent_provider_default',
      });
    });

    it('returns an error naming the model when no provider can be derived', () => {
      assert.deepEqual(resolveJudge({ agentModel: 'llama-3.1-70b' }), {
        error: 'cannot derive a provider from the agent model "llama-3.1-70b"',
      });
      const fixed = resolveJudge({ agentModel: 'gpt-4o', workspaceJudgeModel: 'my-judge' });
      assert.ok('error' in fixed);
      assert.match(fixed.error, /workspace judge model "my-judge"/);
    });
  });
});
