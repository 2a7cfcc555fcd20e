import assert from 'node:assert/strict';
import { readAdkResult } from '../../domain/eval/adk-results';

const metric = (metricName: string, evalStatus: number, score: number | null, threshold: number | null = 0.5) => ({
  metricName,
  threshold,
  score,
  evalStatus,
});
// An EvalSetResult as ADK's pydantic dumps it by alias (camelCase): one case per final status ADK gives.
const RESULT = {
  evalSetResultId: 'app_set_1',
  evalSetId: 'set',
  evalCaseResults: [
    { evalId: 'a', finalEvalStatus: 1, overallEvalMetricResults: [metric('hallucinations_v1', 1, 0.9)] },
    {
      evalId: 'b',
      finalEvalStatus: 2,
      overallEvalMetricResults: [metric('safety_v1', 2, 0), metric('hallucinations_v1', 2, 0.2)],
    },
    {
      evalId: 'c',
      finalEvalStatus: 3,
      overallEvalMetricResults: [metric('hallucinations_v1', 3, null), metric('token_usage_v1', 4, 812, null)],
    },
  ],
};

describe('ADK eval results (domain)', function () {
  it("reads the document and a JSON string of it alike: ADK's verdicts per case and metric", () => {
    const fromDocument = readAdkResult(RESULT);
    assert.deepEqual(readAdkResult(JSON.stringify(RESULT)), fromDocument);
    assert.ok(!('problems' in fromDocument));
    assert.deepEqual(
      fromDocument.cases.map((c) => [
        c.eval_id,
        c.status,
        c.criteria.hallucinations?.passed,
        c.criteria.hallucinations?.applicable,
      ]),
      [
        ['a', 'passed', true, true],
        ['b', 'failed', false, true],
        ['c', 'skipped', true, false],
      ],
    );
    assert.deepEqual(fromDocument.min_scores, { hallucinations: 0.5 });
    assert.deepEqual(
      fromDocument.unsupported.map((u) => u.criterion),
      ['safety_v1', 'token_usage_v1'],
    );
    assert.match(fromDocument.unsupported[1].reason, /informational in ADK/);
  });

  it('names the field of a bad result, and a string that is not a result', () => {
    const bad = readAdkResult({
      ...RESULT,
      evalCaseResults: [{ evalId: 'a', finalEvalStatus: 5, overallEvalMetricResults: [] }],
    });
    assert.ok('problems' in bad);
    assert.deepEqual(
      bad.problems.map((p) => p.field),
      ['eval_case_results[0].final_eval_status'],
    );
    const text = readAdkResult('not json');
    assert.ok('problems' in text);
    assert.deepEqual(
      text.problems.map((p) => p.field),
      ['(body)'],
    );
  });
});
