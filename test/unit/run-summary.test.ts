import assert from 'node:assert/strict';
import { notApplicable, scored } from '../../domain/scoring/criteria';
import { summarizeRun, withNotScored } from '../../domain/scoring/run-summary';
import { scoreSafety } from '../../domain/scoring/safety';

const safe = scoreSafety([]);

describe('run summary', () => {
  it('computes the pass rate over all cases, errors included in the total', () => {
    const summary = summarizeRun([
      { status: 'passed', criteria: [safe] },
      { status: 'failed', criteria: [safe] },
      { status: 'error', criteria: [] },
      { status: 'passed', criteria: [safe] },
    ]);
    assert.equal(summary.pass_rate, 0.5);
    assert.deepEqual(summary.counts, { total: 4, passed: 2, failed: 1, error: 1 });
  });

  it('counts skipped cases apart and leaves them out of the pass rate', () => {
    const summary = summarizeRun([
      { status: 'passed', criteria: [safe] },
      { status: 'failed', criteria: [safe] },
      { status: 'skipped', criteria: [] },
    ]);
    assert.equal(summary.pass_rate, 0.5);
    assert.deepEqual(summary.counts, { total: 3, passed: 1, failed: 1, error: 0, skipped: 1 });
    assert.equal(summarizeRun([{ status: 'skipped', criteria: [] }]).pass_rate, 0);
  });

  it('lists response_match_score in avg_score only once it applied', () => {
    assert.equal('response_match_score' in summarizeRun([{ status: 'passed', criteria: [safe] }]).avg_score, false);
    const rouge = summarizeRun([{ status: 'passed', criteria: [scored('response_match_score', 0.6, 0.5, {}), safe] }]);
    assert.equal(rouge.avg_score.response_match_score, 0.6);
  });

  it('averages each criterion only over the cases where it applied', () => {
    const summary = summarizeRun([
      { status: 'passed', criteria: [scored('final_response_match', 1, 0.8, {}), safe] },
      { status: 'failed', criteria: [scored('final_response_match', 0.5, 0.8, {}), safe] },
      { status: 'passed', criteria: [notApplicable('final_response_match', 0.8, 'none'), safe] },
    ]);
    assert.equal(summary.avg_score.final_response_match, 0.75);
    assert.equal(summary.avg_score.safety, 1);
  });

  it('leaves out criteria that errored and lists a criterion that never applied as null', () => {
    const summary = summarizeRun([
      { status: 'error', criteria: [scored('tool_trajectory_avg_score', 0.5, 1, {}), safe] },
      {
        status: 'passed',
        criteria: [scored('tool_trajectory_avg_score', 1, 1, {}), notApplicable('rubric_based', 0.7, 'none'), safe],
      },
    ]);
    assert.deepEqual(summary.avg_score, {
      tool_trajectory_avg_score: 0.75,
      final_response_match: null,
      rubric_based: null,
      safety: 1,
    });
  });

  it('does not round the averages', () => {
    const summary = summarizeRun([
      { status: 'failed', criteria: [scored('rubric_based', 1 / 3, 0.7, {})] },
      { status: 'failed', criteria: [scored('rubric_based', 0, 0.7, {})] },
    ]);
    assert.equal(summary.avg_score.rubric_based, 1 / 6);
    assert.equal(summary.pass_rate, 0);
  });

  it('reports a zero pass rate and every average null for a run without cases', () => {
    assert.deepEqual(summarizeRun([]), {
      pass_rate: 0,
      avg_score: { tool_trajectory_avg_score: null, final_response_match: null, rubric_based: null, safety: null },
      counts: { total: 0, passed: 0, failed: 0, error: 0 },
      judge_cache: { hits: 0, misses: 0 },
      cost: { judge_usd: 0, agent_usd: null, total_usd: 0, unpriced_models: [] },
    });
  });

  it("sums the cases' judge cache hits and misses, counting a case without them as none", () => {
    const summary = summarizeRun([
      { status: 'passed', criteria: [safe], judge_cache: { hits: 4, misses: 0 } },
      { status: 'failed', criteria: [safe], judge_cache: { hits: 2, misses: 2 } },
      { status: 'error', criteria: [] },
    ]);
    assert.deepEqual(summary.judge_cache, { hits: 6, misses: 2 });
  });

  it('counts the cases a cancelled run left without a result as not_scored', () => {
    const summary = summarizeRun([
      { status: 'passed', criteria: [safe] },
      { status: 'error', criteria: [] },
    ]);
    assert.deepEqual(withNotScored(summary, 500), { ...summary, not_scored: 498 });
  });

  it('never reports a negative not_scored when results outnumber the cases still counted', () => {
    const summary = summarizeRun([{ status: 'passed', criteria: [safe] }]);
    assert.equal(withNotScored(summary, 0).not_scored, 0);
  });
});
