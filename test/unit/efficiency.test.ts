import assert from 'node:assert/strict';
import { efficiencyOf } from '../../domain/scoring/efficiency';

describe('efficiency (informational)', () => {
  it('counts tool calls per case and turn, model calls from the transcript, tokens and latency when recorded', () => {
    const call = { tool_name: 'lookup', tool_args: {} };
    const figures = efficiencyOf({
      tool_calls: [call, call, call],
      messages: [{ role: 'user' }, { role: 'assistant' }, { role: 'tool' }, { role: 'assistant' }],
      token_usage: { prompt_tokens: 120, completion_tokens: 30 },
      latency_ms: 850,
      turns: [{ tool_calls: [call] }, { tool_calls: [call, call] }],
    });
    assert.deepEqual(figures, {
      tool_calls: 3,
      model_calls: 2,
      total_tokens: 150,
      latency_ms: 850,
      turns: [
        { turn: 0, tool_calls: 1 },
        { turn: 1, tool_calls: 2 },
      ],
    });
  });

  it('leaves what an imported conversation does not record null, and reads a one-turn record as one turn', () => {
    const figures = efficiencyOf({ tool_calls: [], messages: [], token_usage: null, latency_ms: null, turns: null });
    assert.deepEqual(figures, {
      tool_calls: 0,
      model_calls: null,
      total_tokens: null,
      latency_ms: null,
      turns: [{ turn: 0, tool_calls: 0 }],
    });
    assert.equal(
      efficiencyOf({ tool_calls: [], messages: [], token_usage: { total_tokens: 9 }, latency_ms: 1, turns: null })
        .total_tokens,
      9,
    );
  });
});
