import assert from 'node:assert/strict';
import { notApplicable, scored } from '../../domain/scoring/criteria';
import { decideCaseOutcome } from '../../domain/scoring/case-outcome';
import { scoreSafety } from '../../domain/scoring/safety';

const safe = scoreSafety([]);

describe('case outcome', () => {
  it('passes a case when every applied criterion passes', () => {
    const criteria = [scored('tool_trajectory_avg_score', 1, 1, {}), scored('rubric_based', 0.75, 0.7, {}), safe];
    assert.deepEqual(decideCaseOutcome(criteria), { status: 'passed', criteria, error: null });
  });

  it('passes a case whose judged criteria are not applicable', () => {
    const criteria = [
      notApplicable('final_response_match', 0.8, 'none'),
      notApplicable('rubric_based', 0.7, 'none'),
      safe,
    ];
    assert.equal(decideCaseOutcome(criteria).status, 'passed');
  });

  it('fails a case when one applied criterion misses its minimum', () => {
    const criteria = [scored('tool_trajectory_avg_score', 0.5, 1, {}), safe];
    assert.equal(decideCaseOutcome(criteria).status, 'failed');
  });

  it('fails a case when a guardrail fired even though every other criterion passed', () => {
    const criteria = [scored('final_response_match', 1, 0.8, {}), { ...safe, score: 0, passed: false }];
    assert.equal(decideCaseOutcome(criteria).status, 'failed');
  });

  it('leaves a criterion the judge could not score unscored; a failing scored criterion still fails the case', () => {
    const outcome = decideCaseOutcome([
      scored('tool_trajectory_avg_score', 0, 1, {}),
      { criterion: 'rubric_based', error: 'the judge gave no usable verdict in 1 of 1 samples' },
      safe,
    ]);
    assert.equal(outcome.status, 'failed');
    assert.equal(outcome.error, null);
    assert.deepEqual(
      outcome.criteria.map((c) => [c.criterion, c.unscored === true]),
      [
        ['tool_trajectory_avg_score', false],
        ['safety', false],
        ['rubric_based', true],
      ],
    );
  });

  it('makes the case error, not pass or fail, when only an unscored criterion could decide it', () => {
    const outcome = decideCaseOutcome([
      scored('tool_trajectory_avg_score', 1, 1, {}),
      { criterion: 'rubric_based', error: 'the judge gave no usable verdict in 1 of 1 samples' },
      safe,
    ]);
    assert.equal(outcome.status, 'error');
    assert.equal(outcome.error, 'rubric_based: the judge gave no usable verdict in 1 of 1 samples');
    const rubric = outcome.criteria.find((c) => c.criterion === 'rubric_based');
    assert.deepEqual(rubric, {
      criterion: 'rubric_based',
      score: 0,
      min_score: null,
      passed: true,
      applicable: false,
      unscored: true,
      detail: { reason: 'the judge gave no usable verdict in 1 of 1 samples' },
    });
  });

  it('makes the case error when scoring failed as a whole', () => {
    assert.deepEqual(decideCaseOutcome({ error: 'agent sandbox crashed' }), {
      status: 'error',
      criteria: [],
      error: 'agent sandbox crashed',
    });
  });

  it('makes the case error rather than pass when no criterion was scored', () => {
    assert.equal(decideCaseOutcome([]).status, 'error');
  });
});
