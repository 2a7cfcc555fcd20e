import assert from 'node:assert/strict';
import { scored } from '../../domain/scoring/criteria';
import { casePassAtK, runPassAtK, withIntervals } from '../../domain/scoring/run-intervals';
import { summarizeRun, type SummarizableCase } from '../../domain/scoring/run-summary';

const outcome = (passed: boolean, score: number): SummarizableCase => ({
  status: passed ? 'passed' : 'failed',
  criteria: [scored('final_response_match', score, 0.5, null)],
});

describe('run intervals', () => {
  it('puts a Wilson interval on the pass rate and a seeded bootstrap interval on each criterion mean', () => {
    const cases = Array.from({ length: 10 }, (_, i) => outcome(i < 8, i < 8 ? 0.9 : 0.1));
    const summary = withIntervals(summarizeRun(cases), cases, 'run-a');
    assert.ok(summary.pass_rate_interval);
    assert.equal(summary.pass_rate_interval.low.toFixed(4), '0.4902');
    assert.equal(summary.pass_rate_interval.high.toFixed(4), '0.9433');
    const interval = summary.avg_score_interval?.final_response_match;
    assert.ok(
      interval && interval.low < 0.74 && 0.74 < interval.high && interval.low >= 0.1 && interval.high <= 0.9 + 1e-9,
    );
    assert.deepEqual(withIntervals(summarizeRun(cases), cases, 'run-a'), summary, 'the same run, the same intervals');
    assert.equal(summary.avg_score_interval?.tool_trajectory_avg_score, null, 'null where the mean is null');
  });

  it('gives pass@k and pass^k per case and their means over the run, errors counting as not passed', () => {
    assert.deepEqual(casePassAtK(['passed']), []);
    assert.deepEqual(
      casePassAtK(['passed', 'error', 'failed']).map((entry) => [
        entry.k,
        entry.pass_at_k.toFixed(6),
        entry.pass_hat_k,
      ]),
      [
        [1, (1 / 3).toFixed(6), 1 / 3],
        [2, (2 / 3).toFixed(6), 0],
        [3, '1.000000', 0],
      ],
    );
    const run = runPassAtK(
      [
        ['passed', 'passed'],
        ['passed', 'failed'],
        ['failed', 'failed'],
      ],
      2,
    );
    assert.deepEqual(
      run.map((entry) => [entry.k, entry.pass_at_k.toFixed(6), entry.pass_hat_k.toFixed(6)]),
      [
        [1, '0.500000', '0.500000'],
        [2, (2 / 3).toFixed(6), (1 / 3).toFixed(6)],
      ],
    );
    assert.deepEqual(runPassAtK([['passed']], 1), []);
  });
});
