import assert from 'node:assert/strict';
import { isCriterionError, type CriterionError, type CriterionResult } from '../../domain/scoring/criteria';
import type { MatchVerdict, RubricVerdict } from '../../domain/scoring/judge-output.parser';
import { scoreFinalResponse, scoreRubrics, type RubricDetail } from '../../domain/scoring/judge-verdicts';

const yes = (justification = 'same'): MatchVerdict => ({ equivalent: true, justification });
const no = (justification = 'differs'): MatchVerdict => ({ equivalent: false, justification });
const sample = (...verdicts: Array<'YES' | 'NO'>): RubricVerdict[] =>
  verdicts.map((verdict, index) => ({ index, verdict, justification: `${verdict} on ${index}` }));

function scoredResult<D>(outcome: CriterionResult<D> | CriterionError): CriterionResult<D> {
  if (isCriterionError(outcome)) assert.fail(`expected a scored result, got error: ${outcome.error}`);
  return outcome;
}

describe('judge verdicts', () => {
  describe('scoreFinalResponse', () => {
    it('marks final_response_match not applicable without an expected response', () => {
      for (const expected of [undefined, null, '', '   ']) {
        const result = scoredResult(scoreFinalResponse({ expected, samples: [], minScore: 0.8 }));
        assert.equal(result.applicable, false);
        assert.equal(result.passed, true);
        assert.equal(result.score, 1);
      }
    });

    it('scores the fraction of judge samples that say yes', () => {
      const samples = [yes(), no(), yes()];
      const result = scoredResult(scoreFinalResponse({ expected: 'Paris', samples, minScore: 0.8 }));
      assert.equal(result.score, 2 / 3);
      assert.equal(result.passed, false);
      assert.deepEqual(result.detail, { yes_votes: 2, samples: 3, justifications: ['same', 'differs', 'same'] });
    });

    it('passes when every sample says yes', () => {
      const result = scoredResult(scoreFinalResponse({ expected: 'Paris', samples: [yes()], minScore: 0.8 }));
      assert.equal(result.score, 1);
      assert.equal(result.passed, true);
    });

    it('reports an error, not a fail, when a sample has no usable verdict', () => {
      const outcome = scoreFinalResponse({ expected: 'Paris', samples: [yes(), null], minScore: 0.8 });
      assert.equal(isCriterionError(outcome), true);
      assert.equal((outcome as CriterionError).criterion, 'final_response_match');
      assert.match((outcome as CriterionError).error, /1 of 2 samples/);
    });

    it('reports an error when the judge was never sampled', () => {
      assert.equal(isCriterionError(scoreFinalResponse({ expected: 'Paris', samples: [], minScore: 0.8 })), true);
    });
  });

  describe('scoreRubrics', () => {
    const rubrics = ['greets the user', 'quotes a price', 'offers a booking'];

    it('marks rubric_based not applicable without rubrics', () => {
      for (const none of [undefined, null, []]) {
        const result = scoredResult(scoreRubrics({ rubrics: none, samples: [], minScore: 0.7 }));
        assert.equal(result.applicable, false);
        assert.equal(result.passed, true);
        assert.equal(result.score, 1);
      }
    });

    it('scores approved rubrics over all rubrics and lists each with its justification', () => {
      const result = scoredResult(scoreRubrics({ rubrics, samples: [sample('YES', 'NO', 'YES')], minScore: 0.7 }));
      const detail = result.detail as RubricDetail;
      assert.equal(result.score, 2 / 3);
      assert.equal(result.passed, false);
      assert.deepEqual(
        detail.approved.map((r) => [r.index, r.rubric, r.justification]),
        [
          [0, 'greets the user', 'YES on 0'],
          [2, 'offers a booking', 'YES on 2'],
        ],
      );
      assert.deepEqual(detail.rejected, [
        { index: 1, rubric: 'quotes a price', justification: 'NO on 1', yes_votes: 0, samples: 1 },
      ]);
    });

    it('lets the majority of samples decide each rubric', () => {
      const samples = [sample('YES', 'NO', 'NO'), sample('YES', 'YES', 'NO'), sample('NO', 'YES', 'NO')];
      const result = scoredResult(scoreRubrics({ rubrics, samples, minScore: 0.6 }));
      const detail = result.detail as RubricDetail;
      assert.deepEqual(
        detail.approved.map((r) => r.index),
        [0, 1],
      );
      assert.deepEqual(
        detail.rejected.map((r) => r.index),
        [2],
      );
      assert.equal(detail.approved[0].yes_votes, 2);
      assert.equal(result.passed, true);
    });

    it('counts a tie between samples as NO, with a NO justification', () => {
      const samples = [sample('YES', 'YES', 'YES'), sample('NO', 'YES', 'YES')];
      const detail = scoredResult(scoreRubrics({ rubrics, samples, minScore: 0.7 })).detail as RubricDetail;
      assert.deepEqual(
        detail.rejected.map((r) => [r.index, r.justification, r.yes_votes, r.samples]),
        [[0, 'NO on 0', 1, 2]],
      );
    });

    it('reports an error when a sample has no usable verdict or lacks a rubric', () => {
      const unusable = scoreRubrics({ rubrics, samples: [sample('YES', 'YES', 'YES'), null], minScore: 0.7 });
      const incomplete = scoreRubrics({ rubrics, samples: [sample('YES', 'YES')], minScore: 0.7 });
      assert.equal(isCriterionError(unusable), true);
      assert.equal(isCriterionError(incomplete), true);
      assert.match((incomplete as CriterionError).error, /rubric 2/);
    });
  });
});
