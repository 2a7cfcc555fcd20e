import assert from 'node:assert/strict';
import { parseMaxUnscored, unscoredReason } from '../../cli/eval-gate-unscored';
import type { EvalRunJson } from '../../cli/eval-run.types';
import { aggregateRepeats } from '../../domain/scoring/case-repeats';
import { decideCaseOutcome } from '../../domain/scoring/case-outcome';
import { scored } from '../../domain/scoring/criteria';
import { summarizeRun } from '../../domain/scoring/run-summary';

const failure = (criterion: 'rubric_based' | 'final_response_match') => ({ criterion, error: 'no usable verdict' });
const judged = decideCaseOutcome([scored('rubric_based', 1, 0.7, {}), scored('final_response_match', 1, 0.8, {})]);
const unscoredRubric = decideCaseOutcome([failure('rubric_based'), scored('final_response_match', 1, 0.8, {})]);
const unscoredBoth = decideCaseOutcome([failure('rubric_based'), failure('final_response_match')]);

describe('unscored criteria', () => {
  it('counts the cases and criteria left unscored apart in the summary, out of the averages', () => {
    const summary = summarizeRun([judged, unscoredRubric, unscoredBoth]);
    assert.deepEqual(summary.unscored, { cases: 2, criteria: { rubric_based: 2, final_response_match: 1 } });
    assert.equal(summary.avg_score.rubric_based, 1, 'an unscored criterion is no 0 in the mean');
    assert.deepEqual(summary.counts, { total: 3, passed: 1, failed: 0, error: 2 });
    assert.equal(summarizeRun([judged]).unscored, undefined);
  });

  it('makes a criterion unscored over repeats only when no repeat scored it', () => {
    const once = aggregateRepeats([unscoredRubric, judged], 1);
    assert.equal(once.criteria.find((c) => c.criterion === 'rubric_based')?.unscored, undefined);
    const never = aggregateRepeats([unscoredRubric, unscoredRubric], 1);
    assert.equal(never.criteria.find((c) => c.criterion === 'rubric_based')?.unscored, true);
  });

  it('parses --max-unscored as cases or a percentage, refusing anything else', () => {
    assert.deepEqual(parseMaxUnscored('0'), { cases: 0 });
    assert.deepEqual(parseMaxUnscored('12.5%'), { percent: 12.5 });
    assert.equal(parseMaxUnscored(undefined), null);
    for (const bad of ['', '-1', '1.5', '101%', 'all', '5 %'])
      assert.throws(() => parseMaxUnscored(bad), /--max-unscored must be/, bad);
  });

  it('fails the gate when more cases than allowed left a criterion unscored', () => {
    const run = (cases: number) =>
      ({
        summary: {
          pass_rate: 1,
          avg_score: {},
          counts: { total: 10, passed: 10 - cases, failed: 0, error: cases },
          unscored: { cases, criteria: { rubric_based: cases } },
        },
      }) as unknown as EvalRunJson;
    assert.equal(unscoredReason(run(2), { cases: 2 }), null);
    assert.match(unscoredReason(run(3), { cases: 2 }) ?? '', /^FAILED: 3 cases left a criterion unscored/);
    assert.equal(unscoredReason(run(2), { percent: 20 }), null);
    assert.match(unscoredReason(run(2), { percent: 19 }) ?? '', /allows 19% = 1/);
    assert.equal(unscoredReason(run(9), null), null, 'not bounded without the flag');
  });
});
