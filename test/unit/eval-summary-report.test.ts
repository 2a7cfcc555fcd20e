import assert from 'node:assert/strict';
import { renderSummary } from '../../cli/eval-report';
import type { EvalRunJson } from '../../cli/eval-run.types';

const run = (avg_score: Record<string, number | null>): EvalRunJson => ({
  id: 'run-1',
  eval_set_id: 'set-1',
  status: 'completed',
  summary: { pass_rate: 0.5, avg_score, counts: { total: 2, passed: 1, failed: 1, error: 0 } },
  scored_cases: 2,
  total_cases: 2,
});

describe('agent:eval summary line', () => {
  it('prints every criterion average, n/a for a criterion that applied to no case', () => {
    const text = renderSummary(
      run({ tool_trajectory_avg_score: 0.75, final_response_match: 1, rubric_based: null, safety: 1 }),
      0.5,
    );
    assert.equal(
      text,
      'pass rate 0.50 (minimum 0.50) (1 passed, 1 failed, 0 error)\n' +
        'average scores: tool_trajectory_avg_score=0.75 final_response_match=1.00 rubric_based=n/a safety=1.00',
    );
  });

  it('adds the 95% intervals and, with repeats, pass@k and pass^k per k', () => {
    const base = run({ final_response_match: 0.75, safety: null });
    const summary = {
      ...base.summary!,
      pass_rate_interval: { low: 0.0945, high: 0.9055 },
      avg_score_interval: { final_response_match: { low: 0.5, high: 1 }, safety: null },
      pass_at_k: [
        { k: 1, pass_at_k: 0.5, pass_hat_k: 0.5 },
        { k: 2, pass_at_k: 2 / 3, pass_hat_k: 1 / 3 },
      ],
    };
    const lines = renderSummary({ ...base, summary }, 0.5).split('\n');
    assert.deepEqual(lines.slice(2), [
      '95% intervals: pass rate 0.09–0.91, final_response_match 0.50–1.00',
      'pass@1 0.50, pass@2 0.67; pass^1 0.50, pass^2 0.33',
    ]);
  });
});
