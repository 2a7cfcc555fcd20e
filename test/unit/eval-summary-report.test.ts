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
});
