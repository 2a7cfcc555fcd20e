import assert from 'node:assert/strict';
import {
  DEFAULT_MIN_SCORES,
  isCriterionError,
  minScoresOverrideSchema,
  notApplicable,
  resolveMinScores,
  scored,
} from '../../domain/scoring/criteria';

describe('criteria', () => {
  describe('resolveMinScores', () => {
    it('uses the spec defaults 1.0, 0.8 and 0.7 when neither the set nor the run sets a minimum', () => {
      assert.deepEqual(resolveMinScores(), {
        tool_trajectory_avg_score: 1,
        final_response_match: 0.8,
        rubric_based: 0.7,
      });
      assert.deepEqual(resolveMinScores(null, null), DEFAULT_MIN_SCORES);
    });

    it('merges a partial run override over the eval set defaults, key by key', () => {
      const resolved = resolveMinScores(
        { tool_trajectory_avg_score: 0.5, final_response_match: 0.6 },
        { final_response_match: 0.9 },
      );
      assert.deepEqual(resolved, { tool_trajectory_avg_score: 0.5, final_response_match: 0.9, rubric_based: 0.7 });
    });

    it('lets a run override a zero minimum and ignores keys explicitly set to undefined', () => {
      const resolved = resolveMinScores({ rubric_based: 0.4 }, { rubric_based: 0, final_response_match: undefined });
      assert.deepEqual(resolved, { tool_trajectory_avg_score: 1, final_response_match: 0.8, rubric_based: 0 });
    });

    it('does not mutate the shared defaults', () => {
      resolveMinScores({ tool_trajectory_avg_score: 0.1 });
      assert.equal(DEFAULT_MIN_SCORES.tool_trajectory_avg_score, 1);
    });
  });

  describe('minScoresOverrideSchema', () => {
    it('accepts a partial object and rejects out-of-range values and a safety minimum', () => {
      assert.equal(minScoresOverrideSchema.safeParse({ rubric_based: 0.5 }).success, true);
      assert.equal(minScoresOverrideSchema.safeParse({ rubric_based: 1.5 }).success, false);
      assert.equal(minScoresOverrideSchema.safeParse({ safety: 1 }).success, false);
    });
  });

  describe('result builders', () => {
    it('marks a not-applicable criterion passed with score 1.0 and keeps its minimum', () => {
      const result = notApplicable('rubric_based', 0.7, 'no rubrics');
      assert.deepEqual(result, {
        criterion: 'rubric_based',
        score: 1,
        min_score: 0.7,
        passed: true,
        applicable: false,
        detail: { reason: 'no rubrics' },
      });
    });

    it('passes an applied criterion exactly at its minimum and fails it just below', () => {
      assert.equal(scored('rubric_based', 7 / 10, 0.7, {}).passed, true);
      assert.equal(scored('rubric_based', 2 / 3, 0.7, {}).passed, false);
    });

    it('tells a criterion error from a scored result', () => {
      assert.equal(isCriterionError({ criterion: 'rubric_based', error: 'no verdict' }), true);
      assert.equal(isCriterionError(scored('rubric_based', 1, 0.7, {})), false);
    });
  });
});
