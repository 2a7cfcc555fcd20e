import assert from 'node:assert/strict';
import { actualCallsOf, diffTrajectories, withTrajectoryDiffs } from '../../domain/eval/trajectory-diff';

const call = (tool_name: string, tool_args: Record<string, unknown> = {}) => ({ tool_name, tool_args });

describe('trajectory diff', () => {
  it("aligns the baseline's calls with the run's: matched pairs with argument changes, missing and extra", () => {
    const baseline = [call('lookup', { id: 2 }), call('cancel', { id: 2 }), call('notify', { to: 'a' })];
    const run = [call('lookup', { id: 2 }), call('refund', { id: 2 }), call('notify', { to: 'b', cc: 'c' })];
    const diff = diffTrajectories(baseline, run);
    assert.deepEqual(diff.rows, [
      { kind: 'matched', tool_name: 'lookup', baseline_index: 0, run_index: 0, argument_changes: [] },
      { kind: 'missing', tool_name: 'cancel', baseline_index: 1, tool_args: { id: 2 } },
      { kind: 'extra', tool_name: 'refund', run_index: 1, tool_args: { id: 2 } },
      {
        kind: 'matched',
        tool_name: 'notify',
        baseline_index: 2,
        run_index: 2,
        argument_changes: [
          { argument: 'cc', run: 'c' },
          { argument: 'to', baseline: 'a', run: 'b' },
        ],
      },
    ]);
    assert.deepEqual([diff.matched, diff.changed, diff.missing, diff.extra], [2, 1, 1, 1]);
  });

  it('reads the calls back from a trajectory detail in the order the agent made them, actual arguments first', () => {
    const detail = {
      mode: 'exact',
      matched: [
        {
          expected_index: 0,
          actual_index: 2,
          tool_name: 'b',
          tool_args: { x: { $any: true } },
          actual_tool_args: { x: 1 },
        },
        { expected_index: 1, actual_index: 0, tool_name: 'a', tool_args: { y: 2 } },
      ],
      missing: [],
      extra: [{ actual_index: 1, tool_name: 'c', tool_args: {} }],
    };
    assert.deepEqual(actualCallsOf(detail), [call('a', { y: 2 }), call('c'), call('b', { x: 1 })]);
    assert.equal(actualCallsOf({ reason: 'the case has no expected_trajectory' }), null);
    assert.equal(actualCallsOf(undefined), null);
  });

  it('gives only regressed cases a diff, null when either run has no alignment', () => {
    const detail = { matched: [], missing: [], extra: [{ actual_index: 0, tool_name: 'a', tool_args: {} }] };
    const cases = [
      { case_id: '1', transition: 'regressed' },
      { case_id: '2', transition: 'regressed' },
      { case_id: '3', transition: 'still_passing' },
    ];
    const [one, two, three] = withTrajectoryDiffs(
      cases,
      new Map([
        ['1', detail],
        ['2', detail],
        ['3', detail],
      ]),
      new Map([['1', detail]]),
    );
    assert.equal(one.trajectory_diff?.matched, 1);
    assert.equal(two.trajectory_diff, null);
    assert.equal('trajectory_diff' in three, false);
  });
});
