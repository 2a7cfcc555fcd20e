import assert from 'node:assert/strict';
import { caseChange, renderComparison } from '../../cli/eval-compare-report';
import type { CaseComparisonJson, ComparisonJson } from '../../cli/eval-run.types';
import { diffTrajectories } from '../../domain/eval/trajectory-diff';

const TRAJ = 'tool_trajectory_avg_score';
const kase = (
  name: string,
  transition: CaseComparisonJson['transition'],
  from: number,
  to: number,
): CaseComparisonJson => ({
  case_id: `id-${name}`,
  case_name: name,
  transition,
  status: to === 1 ? 'passed' : 'failed',
  baseline_status: from === 1 ? 'passed' : 'failed',
  criteria: { [TRAJ]: { run: to, baseline: from, delta: to - from } },
});

const comparison: ComparisonJson = {
  run_id: 'run-2',
  baseline_run_id: 'run-1',
  summary: {
    regressed: 2,
    fixed: 1,
    still_failing: 0,
    still_passing: 3,
    new: 1,
    removed: 0,
    pass_rate: { run: 0.5, baseline: 0.6666, delta: -0.1666 },
    criteria: {},
  },
  // The API's order puts still_passing last; the report must not depend on it for regressions first.
  cases: [
    kase('stable', 'still_passing', 1, 1),
    kase('fixed one', 'fixed', 0.5, 1),
    kase('worse a', 'regressed', 1, 0),
    kase('worse b', 'regressed', 1, 0.5),
  ],
};

describe('agent:eval comparison report', () => {
  it('prints regressions first, then fixes, then the count of every transition', () => {
    const lines = renderComparison(comparison).split('\n');
    assert.equal(lines[0], 'compared with baseline run run-1: pass rate 0.67 → 0.50 (-0.17)');
    assert.deepEqual(lines.slice(1), [
      `REGRESSED worse a: passed → failed; ${TRAJ} 1.00 → 0.00 (-1.00)`,
      `REGRESSED worse b: passed → failed; ${TRAJ} 1.00 → 0.50 (-0.50)`,
      `FIXED fixed one: failed → passed; ${TRAJ} 0.50 → 1.00 (+0.50)`,
      '2 regressed, 1 fixed, 0 still failing, 1 new, 0 removed, 3 still passing',
    ]);
  });

  it('leaves out criteria that did not move and shows a missing side as - and none', () => {
    assert.equal(caseChange(kase('stable', 'still_passing', 1, 1)), 'stable: passed → passed');
    const errored: CaseComparisonJson = {
      ...kase('broke', 'regressed', 1, 0),
      status: 'error',
      criteria: {
        safety: { run: 1, baseline: 1, delta: 0 },
        rubric_based: { run: null, baseline: null, delta: null },
        final_response_match: { run: 0, baseline: 1, delta: -1 },
        [TRAJ]: { run: null, baseline: 1, delta: null },
      },
    };
    assert.equal(
      caseChange(errored),
      `broke: passed → error; ${TRAJ} 1.00 → -, final_response_match 1.00 → 0.00 (-1.00)`,
      'in the order of the results table',
    );
    const added: CaseComparisonJson = { ...kase('added', 'new', 0, 1), baseline_status: null, criteria: {} };
    assert.equal(caseChange(added), 'added: none → passed');
  });

  it("prints flaky cases apart, the paired tests, and with detailed each regressed case's trajectory diff", () => {
    const diff = diffTrajectories(
      [
        { tool_name: 'lookup', tool_args: { id: 2 } },
        { tool_name: 'cancel', tool_args: { id: 2 } },
      ],
      [
        { tool_name: 'lookup', tool_args: { id: 3 } },
        { tool_name: 'refund', tool_args: { id: 2 } },
      ],
    );
    const judged: ComparisonJson = {
      ...comparison,
      cases: [
        { ...kase('worse a', 'regressed', 1, 0), verdict: 'regressed', flaky: false, trajectory_diff: diff },
        { ...kase('worse b', 'regressed', 1, 0.5), verdict: 'flaky', flaky: true, trajectory_diff: null },
        { ...kase('fixed one', 'fixed', 0.5, 1), verdict: 'improved', flaky: false },
      ],
      statistics: {
        paired_cases: 6,
        mcnemar: { worse: 2, better: 1, p_value: 1 },
        pass_rate_delta: { delta: -1 / 6, interval: { low: -0.5, high: 0.1666 }, p_value: 0.6, pairs: 6 },
        criteria: {},
      },
    };
    assert.deepEqual(renderComparison(judged).split('\n').slice(1), [
      `REGRESSED worse a: passed → failed; ${TRAJ} 1.00 → 0.00 (-1.00)`,
      `FIXED fixed one: failed → passed; ${TRAJ} 0.50 → 1.00 (+0.50)`,
      `FLAKY worse b: passed → failed; ${TRAJ} 1.00 → 0.50 (-0.50)`,
      '2 regressed, 1 fixed, 0 still failing, 1 new, 0 removed, 3 still passing',
      'paired over 6 cases: 2 worse, 1 better, exact McNemar p = 1.00; pass rate delta -0.17 [95% -0.50, +0.17]',
    ]);
    assert.deepEqual(renderComparison(judged, true).split('\n').slice(2, 7), [
      '    trajectory diff: 1 matched (1 with other arguments), 1 missing, 1 extra',
      '    = lookup arguments id: 2 → 3',
      '    - missing cancel {"id":2} (baseline call 1)',
      '    + extra refund {"id":2} (run call 1)',
      `FIXED fixed one: failed → passed; ${TRAJ} 0.50 → 1.00 (+0.50)`,
    ]);
    assert.match(renderComparison(judged, true), /FLAKY worse b: .*\n    trajectory diff: not available/);
    const none = { tool_calls: 0, model_calls: null, total_tokens: null, latency_ms: null };
    const withEfficiency: ComparisonJson = {
      ...judged,
      cases: [
        { ...judged.cases[0], efficiency_delta: { ...none, tool_calls: 2, total_tokens: -15 } },
        { ...judged.cases[1], efficiency_delta: none },
        { ...judged.cases[2], efficiency_delta: null },
      ],
      efficiency: {
        cases: 6,
        tool_calls: { run: 4 / 3, baseline: 1, delta: 1 / 3 },
        model_calls: { run: 2, baseline: 2, delta: 0 },
        total_tokens: { run: null, baseline: null, delta: null },
        latency_ms: { run: 1200, baseline: 1000, delta: 200 },
      },
    };
    assert.deepEqual(renderComparison(withEfficiency, true).split('\n').slice(-2), [
      'efficiency over 6 cases (mean): tool calls 1 → 1.33 (+0.33), model calls 2 → 2 (0), tokens - → -, latency ms 1000 → 1200 (+200)',
      '  worse a: tool calls +2, tokens -15',
    ]);
    assert.doesNotMatch(renderComparison(withEfficiency), /efficiency/, 'only with detailed');
  });
});
