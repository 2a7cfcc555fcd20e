import assert from 'node:assert/strict';
import { aggregateRepeats, flipRate, isFlaky } from '../../domain/scoring/case-repeats';
import type { CaseOutcome } from '../../domain/scoring/case-outcome';
import { scored } from '../../domain/scoring/criteria';
import { summarizeRun, withFlakyCases } from '../../domain/scoring/run-summary';

const pass = (score = 1): CaseOutcome => ({
  status: 'passed',
  criteria: [scored('final_response_match', score, 0.8, { repeat: score })],
  error: null,
});
const fail = (score = 0): CaseOutcome => ({
  status: 'failed',
  criteria: [scored('final_response_match', score, 0.8, { repeat: score })],
  error: null,
});
const error = (message: string): CaseOutcome => ({ status: 'error', criteria: [], error: message });

describe('case repeats', () => {
  it('gives a flip rate of 0.5 to a case passing on alternate repeats, whatever their number', () => {
    assert.equal(flipRate(['passed', 'failed']), 0.5);
    assert.equal(flipRate(['passed', 'failed', 'passed', 'failed']), 0.5);
    assert.equal(flipRate(['failed', 'passed', 'failed', 'passed', 'failed', 'passed']), 0.5);
  });

  it('gives the fraction of minority outcomes: 0 when every repeat agrees, errors counting as not passed', () => {
    assert.equal(flipRate(['passed', 'passed', 'passed']), 0);
    assert.equal(flipRate(['failed', 'error']), 0);
    assert.equal(flipRate(['passed', 'passed', 'passed', 'failed']), 0.25);
    assert.equal(flipRate(['passed', 'error', 'failed']), 1 / 3);
    assert.equal(isFlaky(0), false);
    assert.equal(isFlaky(null), false);
    assert.equal(isFlaky(0.25), true);
  });

  it('passes a case that passed in at least min_repeat_pass repeats, else fails it', () => {
    const outcomes = [pass(), fail(), pass(), fail()];
    assert.equal(aggregateRepeats(outcomes, 2).status, 'passed');
    assert.equal(aggregateRepeats(outcomes, 3).status, 'failed');
    assert.equal(aggregateRepeats(outcomes, 4).status, 'failed');
    assert.equal(aggregateRepeats([pass(), pass()], 2).status, 'passed');
  });

  it('errors only when the errored repeats could have decided the case, naming each repeat', () => {
    const undecided = aggregateRepeats([pass(), error('judge down'), fail()], 2);
    assert.deepEqual([undecided.status, undecided.error], ['error', 'repeat 1: judge down']);
    assert.equal(aggregateRepeats([pass(), error('judge down'), pass()], 2).status, 'passed');
    assert.equal(aggregateRepeats([fail(), error('judge down'), fail()], 2).status, 'failed');
  });

  it('averages each criterion over the repeats that applied it and passes it by the same rule as the case', () => {
    const { criteria } = aggregateRepeats([pass(1), fail(0), pass(1), fail(0.5)], 2);
    assert.deepEqual(criteria, [
      {
        criterion: 'final_response_match',
        score: 0.625,
        min_score: 0.8,
        passed: true,
        applicable: true,
        detail: { repeat: 0.5 },
      },
    ]);
    assert.equal(aggregateRepeats([pass(1), fail(0), pass(1), fail(0.5)], 3).criteria[0].passed, false);
  });

  it('lists the flaky cases of a run most flaky first, and counts them', () => {
    const cases = [
      { status: 'passed' as const, criteria: [], case_id: 'a', name: 'steady', flip_rate: 0 },
      { status: 'failed' as const, criteria: [], case_id: 'b', name: 'wobbly', flip_rate: 0.25 },
      { status: 'failed' as const, criteria: [], case_id: 'c', name: 'coin', flip_rate: 0.5 },
    ];
    const summary = withFlakyCases(summarizeRun(cases), cases);
    assert.deepEqual(summary.flaky, [
      { case_id: 'c', name: 'coin', flip_rate: 0.5 },
      { case_id: 'b', name: 'wobbly', flip_rate: 0.25 },
    ]);
    assert.equal(summary.flaky_count, 2);
    assert.equal(summarizeRun(cases).flaky, undefined);
  });
});
