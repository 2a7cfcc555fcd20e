import assert from 'node:assert/strict';
import { estimateJudgeWork, estimatedJudgeUsd } from '../../domain/scoring/judge-estimate';
import { caseCost, summarizeCost, usdOf } from '../../domain/scoring/run-cost';

const judgePrice = { input_per_mtok: 0.4, output_per_mtok: 1.6 };
const agentPrice = { input_per_mtok: 2.5, output_per_mtok: 10 };

describe('run cost', () => {
  it('prices prompt tokens at the input price and completion tokens at the output price', () => {
    assert.equal(
      usdOf({ input_per_mtok: 2, output_per_mtok: 8 }, { prompt_tokens: 500_000, completion_tokens: 250_000 }),
      3,
    );
  });

  it('costs a live case judge and agent apart, and an offline case without an agent part', () => {
    const judge = { model: 'gpt-4.1-mini', price: judgePrice, usage: { prompt_tokens: 1000, completion_tokens: 100 } };
    const agent = { model: 'gpt-4o', price: agentPrice, usage: { prompt_tokens: 2000, completion_tokens: 300 } };
    assert.deepEqual(caseCost({ judge, agent }), {
      judge_usd: (1000 * 0.4 + 100 * 1.6) / 1e6,
      agent_usd: (2000 * 2.5 + 300 * 10) / 1e6,
      unpriced_models: [],
    });
    assert.deepEqual(caseCost({ judge, agent: null }).agent_usd, null);
  });

  it('costs no calls at 0 whatever the price, and names a model without a price', () => {
    assert.deepEqual(caseCost({ judge: { model: 'x-judge', price: null, usage: null }, agent: null }), {
      judge_usd: 0,
      agent_usd: null,
      unpriced_models: [],
    });
    const usage = { prompt_tokens: 10, completion_tokens: 5 };
    assert.deepEqual(caseCost({ judge: { model: 'x-judge', price: null, usage }, agent: null }), {
      judge_usd: null,
      agent_usd: null,
      unpriced_models: ['x-judge'],
    });
  });

  it('sums cases into the run cost; offline has no agent cost; an unpriced model makes its part and the total null', () => {
    const a = { judge_usd: 0.001, agent_usd: 0.01, unpriced_models: [] };
    const b = { judge_usd: 0.002, agent_usd: 0.02, unpriced_models: [] };
    assert.deepEqual(summarizeCost([a, b, null]), {
      judge_usd: 0.003,
      agent_usd: 0.03,
      total_usd: 0.033,
      unpriced_models: [],
    });
    const offline = summarizeCost([{ ...a, agent_usd: null }]);
    assert.deepEqual(offline, { judge_usd: 0.001, agent_usd: null, total_usd: 0.001, unpriced_models: [] });
    const unpricedAgent = summarizeCost([a, { judge_usd: 0.002, agent_usd: null, unpriced_models: ['my-model'] }]);
    assert.deepEqual(unpricedAgent, {
      judge_usd: 0.003,
      agent_usd: null,
      total_usd: null,
      unpriced_models: ['my-model'],
    });
  });

  it('counts the judge calls of a dry run exactly and estimates their tokens from the cases', () => {
    const tally = { cases: 5, match_cases: 3, match_chars: 400, rubric_cases: 2, rubric_chars: 200, rubrics: 4 };
    const estimate = estimateJudgeWork(tally, 3, 2);
    assert.equal(estimate.judge_calls, (3 + 2) * 3 * 2);
    assert.equal(estimate.completion_tokens, (3 + 4) * 40 * 6);
    assert.ok(estimate.prompt_tokens > ((400 + 200) * 6) / 4);
    assert.equal(estimatedJudgeUsd(estimate, null), null);
    assert.equal(estimatedJudgeUsd(estimate, judgePrice), usdOf(judgePrice, estimate));
  });
});
