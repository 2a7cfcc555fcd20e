import assert from 'node:assert/strict';
import type { CaseStatus } from '../../domain/scoring/case-outcome';
import {
  caseOrderKey,
  compareOrderKeys,
  compareRuns,
  transitionOf,
  type ComparedResult,
} from '../../domain/eval/run-comparison';
import { distinctTags, parseBaselineRef, runTagsSchema } from '../../domain/eval/run-tags';

const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const result = (n: number, status: CaseStatus, scores: Record<string, number | null> = {}): ComparedResult => ({
  case_id: id(n),
  case_name: `case ${n}`,
  status,
  scores,
});

describe('run comparison', () => {
  it('names each transition from the baseline status to the run status', () => {
    const table: Array<[CaseStatus | null, CaseStatus | null, string]> = [
      ['failed', 'passed', 'regressed'],
      ['error', 'passed', 'regressed'],
      ['passed', 'failed', 'fixed'],
      ['passed', 'error', 'fixed'],
      ['failed', 'error', 'still_failing'],
      ['error', 'failed', 'still_failing'],
      ['failed', 'failed', 'still_failing'],
      ['passed', 'passed', 'still_passing'],
      ['passed', null, 'new'],
      ['error', null, 'new'],
      [null, 'passed', 'removed'],
    ];
    for (const [status, baseline, transition] of table)
      assert.equal(transitionOf(status, baseline), transition, `${baseline} → ${status}`);
  });

  it('orders cases regressed, fixed, still failing, new, removed, still passing, then by name', () => {
    const run = [
      result(1, 'passed'),
      result(2, 'failed'),
      result(3, 'passed'),
      result(4, 'failed'),
      result(5, 'passed'),
      { ...result(6, 'failed'), case_name: 'a regression' },
      { ...result(7, 'failed'), case_name: 'Z regression' },
    ];
    const baseline = [
      result(1, 'passed'),
      result(2, 'failed'),
      result(3, 'failed'),
      result(4, 'passed'),
      result(6, 'passed'),
      result(7, 'passed'),
      result(8, 'passed'),
    ];
    const { cases } = compareRuns(run, baseline);
    assert.deepEqual(
      cases.map((entry) => [entry.transition, entry.case_name]),
      [
        ['regressed', 'Z regression'],
        ['regressed', 'a regression'],
        ['regressed', 'case 4'],
        ['fixed', 'case 3'],
        ['still_failing', 'case 2'],
        ['new', 'case 5'],
        ['removed', 'case 8'],
        ['still_passing', 'case 1'],
      ],
    );
  });

  it('gives statuses and per-criterion deltas, null where a run has no score', () => {
    const run = [result(1, 'failed', { final_response_match: 0.5, rubric_based: null, safety: 1 })];
    const baseline = [result(1, 'passed', { final_response_match: 1, tool_trajectory_avg_score: 1, safety: 1 })];
    const [entry] = compareRuns(run, baseline).cases;
    assert.deepEqual(entry, {
      case_id: id(1),
      case_name: 'case 1',
      transition: 'regressed',
      status: 'failed',
      baseline_status: 'passed',
      criteria: {
        final_response_match: { run: 0.5, baseline: 1, delta: -0.5 },
        rubric_based: { run: null, baseline: null, delta: null },
        safety: { run: 1, baseline: 1, delta: 0 },
        tool_trajectory_avg_score: { run: null, baseline: 1, delta: null },
      },
    });
    const [removed] = compareRuns([], baseline).cases;
    assert.equal(removed.status, null);
    assert.equal(removed.baseline_status, 'passed');
    assert.deepEqual(removed.criteria.safety, { run: null, baseline: 1, delta: null });
  });

  it('says which turn failed first in each run for a case scored by turns, and nothing for a one-turn case', () => {
    const run = [{ ...result(1, 'failed'), first_failed_turn: 2 }, result(2, 'passed'), result(3, 'passed')];
    const baseline = [
      { ...result(1, 'passed'), first_failed_turn: null },
      result(2, 'passed'),
      { ...result(4, 'failed'), first_failed_turn: 0 },
    ];
    const byId = new Map(compareRuns(run, baseline).cases.map((entry) => [entry.case_id, entry]));
    assert.deepEqual(byId.get(id(1))?.first_failed_turn, { run: 2, baseline: null });
    assert.equal('first_failed_turn' in (byId.get(id(2)) ?? {}), false);
    assert.equal('first_failed_turn' in (byId.get(id(3)) ?? {}), false);
    assert.deepEqual(byId.get(id(4))?.first_failed_turn, { run: null, baseline: 0 });
  });

  it('names a case kept in both runs as the run scored it', () => {
    const [entry] = compareRuns([result(1, 'passed')], [{ ...result(1, 'passed'), case_name: 'old name' }]).cases;
    assert.equal(entry.case_name, 'case 1');
  });

  it('summarises counts over all cases, pass rates over the results each run has, and criterion means', () => {
    const run = [
      result(1, 'passed', { final_response_match: 1 }),
      result(2, 'failed', { final_response_match: 0 }),
      result(3, 'error'),
      result(4, 'passed', { final_response_match: null }),
    ];
    const baseline = [
      result(1, 'passed', { final_response_match: 1, rubric_based: 0.5 }),
      result(2, 'passed', { final_response_match: 1, rubric_based: null }),
      result(5, 'failed', { final_response_match: 0.5 }),
    ];
    const { summary } = compareRuns(run, baseline);
    assert.deepEqual(summary, {
      regressed: 1,
      fixed: 0,
      still_failing: 0,
      new: 2,
      removed: 1,
      still_passing: 1,
      pass_rate: { run: 0.5, baseline: 2 / 3, delta: 0.5 - 2 / 3 },
      criteria: {
        final_response_match: { run: 0.5, baseline: 2.5 / 3, delta: 0.5 - 2.5 / 3 },
        rubric_based: { run: null, baseline: 0.5, delta: null },
      },
    });
  });

  it('gives a pass rate of 0 to a run without results', () => {
    const { summary, cases } = compareRuns([], []);
    assert.deepEqual(summary.pass_rate, { run: 0, baseline: 0, delta: 0 });
    assert.deepEqual(cases, []);
  });

  it('orders keys by rank, name, id in code-unit order, so a page can continue after any key', () => {
    const a = caseOrderKey({ transition: 'regressed', case_name: 'b', case_id: id(1) });
    const b = caseOrderKey({ transition: 'fixed', case_name: 'a', case_id: id(1) });
    const c = caseOrderKey({ transition: 'fixed', case_name: 'a', case_id: id(2) });
    assert.ok(compareOrderKeys(a, b) < 0);
    assert.ok(compareOrderKeys(b, c) < 0);
    assert.ok(compareOrderKeys(c, b) > 0);
    assert.equal(compareOrderKeys(c, [...c]), 0);
    assert.ok(compareOrderKeys(['0', 'Z'], ['0', 'a']) < 0, 'upper case sorts before lower case');
  });
});

describe('run tags and baselines', () => {
  it('accepts up to 10 tags of letters, digits and . _ : / @ + -, and drops duplicates', () => {
    assert.ok(runTagsSchema.safeParse(['main', 'sha:0a1b2c', 'feature/x', 'v1.2+b@3', 'a_b-c']).success);
    assert.equal(runTagsSchema.safeParse(Array.from({ length: 11 }, (_, i) => `t${i}`)).success, false);
    for (const bad of ['', 'a b', 'ü', 'x'.repeat(101), 'semi;colon'])
      assert.equal(runTagsSchema.safeParse([bad]).success, false, JSON.stringify(bad));
    assert.deepEqual(distinctTags(['b', 'a', 'b', 'c', 'a']), ['b', 'a', 'c']);
  });

  it('reads last-completed, tag:<name> and anything else as a run id', () => {
    assert.deepEqual(parseBaselineRef('last-completed'), { kind: 'last-completed' });
    assert.deepEqual(parseBaselineRef('tag:main'), { kind: 'tag', tag: 'main' });
    assert.deepEqual(parseBaselineRef('tag:sha:abc'), { kind: 'tag', tag: 'sha:abc' });
    assert.deepEqual(parseBaselineRef(id(3)), { kind: 'run', id: id(3) });
    assert.match((parseBaselineRef('tag:') as { error: string }).error, /^tag: /);
    assert.match((parseBaselineRef('tag:a b') as { error: string }).error, /may only hold/);
  });
});
