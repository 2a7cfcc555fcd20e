import assert from 'node:assert/strict';
import { agentRunnability } from '../../domain/agent/agent-runnability';
import { AGENT_NOT_PUBLISHED } from '../../domain/eval/run-failures';

const version = (model: string, settings: unknown = {}) => ({ version: 3, model, settings });

describe('agentRunnability', () => {
  it('refuses an agent with no published version, saying how to publish it', () => {
    assert.deepEqual(agentRunnability(undefined), {
      runnable: false,
      reason: 'not_published',
      message: AGENT_NOT_PUBLISHED,
    });
  });

  it('refuses a model no provider can be derived from, naming the model', () => {
    assert.deepEqual(agentRunnability(version('llama-3.1-70b')), {
      runnable: false,
      reason: 'model_unresolvable',
      message: 'cannot derive a provider from the agent model "llama-3.1-70b"',
    });
  });

  it('refuses stored settings the runtime rejects, naming the field', () => {
    const verdict = agentRunnability(version('gpt-4o', { max_steps: 0 }));
    assert.equal(verdict.runnable, false);
    assert.equal(!verdict.runnable && verdict.reason, 'settings_invalid');
    assert.match(
      !verdict.runnable ? verdict.message : '',
      /^the published agent version has invalid settings\.max_steps: /,
    );
  });

  it('answers the version itself with its provider and runtime settings', () => {
    const published = version('meta-llama/llama-3.3-70b-instruct', { max_steps: 4 });
    const verdict = agentRunnability(published);
    assert.ok(verdict.runnable);
    assert.equal(verdict.version, published);
    assert.equal(verdict.provider, 'openrouter');
    assert.equal(verdict.settings.maxSteps, 4);
  });
});
