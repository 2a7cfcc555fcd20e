import assert from 'node:assert/strict';
import { judgeComparison } from '../../domain/eval/comparison-statistics';
import { compareRuns, type ComparedResult } from '../../domain/eval/run-comparison';
import type { CaseStatus } from '../../domain/scoring/case-outcome';

const result = (i: number, status: CaseStatus, score: number, flip_rate: number | null = null): ComparedResult => ({
  case_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  case_name: `case ${i}`,
  status,
  scores: { final_response_match: score },
  flip_rate,
});

const judge = (run: ComparedResult[], baseline: ComparedResult[], mode: 'any' | 'significant') =>
  judgeComparison(compareRuns(run, baseline), run, baseline, { seed: 'r:b', mode, alpha: 0.05 });

describe('comparison statistics', () => {
  it('counts discordant pairs for McNemar and fails `any` on one regression but not `significant`', () => {
    const baseline = [result(1, 'passed', 1), result(2, 'passed', 1), result(3, 'failed', 0), result(4, 'passed', 1)];
    const run = [result(1, 'failed', 0), result(2, 'passed', 1), result(3, 'passed', 1), result(5, 'passed', 1)];
    const any = judge(run, baseline, 'any');
    assert.equal(any.statistics.paired_cases, 3, 'case 4 and case 5 are in one run only');
    assert.deepEqual(any.statistics.mcnemar, { worse: 1, better: 1, p_value: 1 });
    assert.deepEqual(any.regression, { mode: 'any', alpha: 0.05, regressed: 1, significant: false, failed: true });
    assert.equal(judge(run, baseline, 'significant').regression.failed, false);
    assert.equal(any.statistics.pass_rate_delta?.delta, 0);
    assert.equal(any.statistics.criteria.final_response_match?.pairs, 3);
  });

  it('fails `significant` when many more cases got worse than better, at p below alpha', () => {
    const baseline = Array.from({ length: 12 }, (_, i) => result(i, 'passed', 1));
    const run = baseline.map((entry, i) =>
      i < 9 ? { ...entry, status: 'failed' as const, scores: { final_response_match: 0 } } : entry,
    );
    const judged = judge(run, baseline, 'significant');
    assert.deepEqual([judged.statistics.mcnemar.worse, judged.statistics.mcnemar.better], [9, 0]);
    assert.equal(judged.statistics.mcnemar.p_value, 2 / 512);
    assert.deepEqual([judged.regression.significant, judged.regression.failed], [true, true]);
    const delta = judged.statistics.criteria.final_response_match;
    assert.ok(delta && delta.delta === -0.75 && delta.interval.high < 0 && delta.p_value < 0.05);
    assert.deepEqual(judge(run, baseline, 'significant').statistics, judged.statistics, 'seeded: the same answer');
  });

  it('tells regressed, improved and flaky apart: a case whose repeats flipped in the run is flaky', () => {
    const baseline = [
      result(1, 'passed', 1),
      result(2, 'failed', 0),
      result(3, 'passed', 1, 1 / 3),
      result(4, 'passed', 1),
    ];
    const run = [
      result(1, 'failed', 0),
      result(2, 'passed', 1),
      result(3, 'failed', 0),
      result(4, 'failed', 0.33, 1 / 3),
    ];
    const judged = judge(run, baseline, 'any');
    const verdictOf = Object.fromEntries(judged.cases.map((entry) => [entry.case_name, [entry.verdict, entry.flaky]]));
    assert.deepEqual(verdictOf, {
      'case 1': ['regressed', false],
      'case 2': ['improved', false],
      'case 3': ['regressed', false],
      'case 4': ['flaky', true],
    });
    assert.deepEqual(judged.verdicts, { regressed: 2, improved: 1, flaky: 1 });
    assert.equal(judged.regression.regressed, 3, '`any` counts every regressed case, flaky or not');
  });
});
