import assert from 'node:assert/strict';
import { efficiencyComparison, efficiencyDelta } from '../../domain/eval/efficiency-delta';
import type { ComparedResult } from '../../domain/eval/run-comparison';
import type { Efficiency } from '../../domain/scoring/efficiency';

const figures = (tool_calls: number, total_tokens: number | null, latency_ms: number | null = null): Efficiency => ({
  tool_calls,
  model_calls: 2,
  total_tokens,
  latency_ms,
  turns: [{ turn: 0, tool_calls }],
});
const result = (case_id: string, efficiency: Efficiency | null, status = 'passed'): ComparedResult =>
  ({ case_id, case_name: case_id, status, scores: {}, efficiency }) as ComparedResult;

describe('efficiency deltas of a comparison', () => {
  it('takes run − baseline per figure, null where either side lacks it or either run has no figures', () => {
    assert.deepEqual(efficiencyDelta(figures(3, 120, 900), figures(1, 100, null)), {
      tool_calls: 2,
      model_calls: 0,
      total_tokens: 20,
      latency_ms: null,
    });
    assert.equal(efficiencyDelta(figures(3, 120), null), null);
    assert.equal(efficiencyDelta(undefined, figures(3, 120)), null);
  });

  it('averages each figure over the cases both runs scored where both record it', () => {
    const run = [
      result('a', figures(4, 100)),
      result('b', figures(2, null)),
      result('c', figures(9, 9)),
      result('d', figures(5, 5), 'skipped'),
    ];
    const baseline = [result('a', figures(1, 60)), result('b', figures(1, 70)), result('d', figures(1, 1))];
    assert.deepEqual(efficiencyComparison(run, baseline), {
      cases: 2,
      tool_calls: { run: 3, baseline: 1, delta: 2 },
      model_calls: { run: 2, baseline: 2, delta: 0 },
      total_tokens: { run: 100, baseline: 60, delta: 40 },
      latency_ms: { run: null, baseline: null, delta: null },
    });
    assert.equal(efficiencyComparison([], baseline).cases, 0);
  });
});
