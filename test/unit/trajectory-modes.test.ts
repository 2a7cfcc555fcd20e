import assert from 'node:assert/strict';
import type { ExpectedCall } from '../../domain/trajectory/expected-call';
import { scoreTrajectory, type TrajectoryDetail } from '../../domain/trajectory/trajectory';
import { type ToolCall } from '../../domain/trajectory/tool-call';
import { TRAJECTORY_MATCH_MODES, type TrajectoryMatch } from '../../domain/trajectory/trajectory-modes';
import { ACTUAL, BOOK, BY_MODE, EXPECTED, RECEIPT, SEARCH, WEATHER } from '../helpers/trajectory-fixtures';

const score = (mode: TrajectoryMatch, expected: readonly ExpectedCall[], actual: readonly ToolCall[]) =>
  scoreTrajectory({ expected, actual, minScore: 1, mode });
// The four strict modes side by side (partial and f1 are checked in trajectory-partial-credit.test.ts).
const STRICT_MODES: readonly TrajectoryMatch[] = ['exact', 'in_order', 'any_order', 'lcs'];
const scores = (expected: readonly ExpectedCall[], actual: readonly ToolCall[]) =>
  Object.fromEntries(STRICT_MODES.map((mode) => [mode, score(mode, expected, actual).score]));

describe('trajectory match modes', () => {
  it('scores the README example by each mode, side by side, with its matched, missing and extra calls', () => {
    for (const mode of TRAJECTORY_MATCH_MODES) {
      const result = score(mode, EXPECTED, ACTUAL);
      const detail = result.detail as TrajectoryDetail;
      const want = BY_MODE[mode];
      assert.equal(result.score, want.score, mode);
      assert.equal(result.passed, want.score === 1, mode);
      assert.equal(detail.mode, mode);
      assert.deepEqual(
        detail.matched.map((m) => [m.expected_index, m.actual_index]),
        want.matched,
        mode,
      );
      assert.deepEqual(
        detail.missing.map((m) => m.expected_index),
        want.missing,
        mode,
      );
      assert.deepEqual(
        detail.extra.map((m) => m.actual_index),
        want.extra,
        mode,
      );
      for (const m of detail.matched) assert.equal(m.tool_name, EXPECTED[m.expected_index].tool_name, mode);
    }
  });

  it('defaults to lcs, the rule cases had before modes existed', () => {
    const result = scoreTrajectory({ expected: EXPECTED, actual: ACTUAL, minScore: 1 });
    assert.equal(result.score, BY_MODE.lcs.score);
    assert.equal((result.detail as TrajectoryDetail).mode, 'lcs');
  });

  it('scores 1.0 in every mode for identical calls, and for nothing expected and nothing called', () => {
    assert.deepEqual(scores(EXPECTED, EXPECTED), { exact: 1, in_order: 1, any_order: 1, lcs: 1 });
    assert.deepEqual(scores([], []), { exact: 1, in_order: 1, any_order: 1, lcs: 1 });
  });

  it('lets extra calls cost nothing in in_order and any_order only', () => {
    const withExtras = [WEATHER, SEARCH, WEATHER, BOOK, RECEIPT, WEATHER];
    assert.deepEqual(scores(EXPECTED, withExtras), { exact: 0, in_order: 1, any_order: 1, lcs: 3 / 6 });
    assert.deepEqual(scores([], [WEATHER]), { exact: 0, in_order: 1, any_order: 1, lcs: 0 });
  });

  it('requires order in exact, in_order and lcs but not in any_order', () => {
    const reversed = [RECEIPT, BOOK, SEARCH];
    assert.deepEqual(scores(EXPECTED, reversed), { exact: 1 / 3, in_order: 1 / 3, any_order: 1, lcs: 1 / 3 });
  });

  it('counts missing calls against every mode', () => {
    assert.deepEqual(scores(EXPECTED, [SEARCH, RECEIPT]), {
      exact: 1 / 3,
      in_order: 2 / 3,
      any_order: 2 / 3,
      lcs: 2 / 3,
    });
    assert.deepEqual(scores(EXPECTED, []), { exact: 0, in_order: 0, any_order: 0, lcs: 0 });
  });

  it('uses each actual call for one expected call at most in any_order', () => {
    const result = score('any_order', [SEARCH, SEARCH], [SEARCH]);
    assert.equal(result.score, 0.5);
    assert.deepEqual((result.detail as TrajectoryDetail).missing, [{ expected_index: 1, ...SEARCH, args_score: 1 }]);
  });

  it('finds the largest any_order pairing when a matcher could take the call another expected call needs', () => {
    // Greedy pairing gives the first actual booking to the wildcard and leaves TP123 unmatched; the best pairs both.
    const expected: ExpectedCall[] = [{ tool_name: 'book_flight', tool_args: { flight: { $any: true } } }, BOOK];
    const actual = [BOOK, { tool_name: 'book_flight', tool_args: { flight: 'TP999' } }];
    const result = score('any_order', expected, actual);
    assert.equal(result.score, 1);
    assert.deepEqual(
      (result.detail as TrajectoryDetail).matched.map((m) => [m.expected_index, m.actual_index]),
      [
        [0, 1],
        [1, 0],
      ],
    );
  });

  it('applies argument matchers in every mode', () => {
    const loose: ExpectedCall[] = [
      { tool_name: 'search_flights', tool_args: { to: { $regex: '^L' } }, args_match: 'subset' },
      { tool_name: 'book_flight', tool_args: {}, args_match: 'ignore' },
      { tool_name: 'send_receipt', tool_args: { email: { $regex: '@example\\.com$' } } },
    ];
    for (const mode of TRAJECTORY_MATCH_MODES)
      assert.equal(score(mode, loose, ACTUAL).score, BY_MODE[mode].score, mode);
    const matched = (score('any_order', loose, ACTUAL).detail as TrajectoryDetail).matched;
    assert.deepEqual(
      matched.map((m) => m.actual_tool_args),
      [SEARCH.tool_args, BOOK.tool_args, RECEIPT.tool_args],
    );
  });

  it('passes by the minimum score whatever the mode', () => {
    assert.equal(scoreTrajectory({ expected: EXPECTED, actual: ACTUAL, minScore: 0.6, mode: 'in_order' }).passed, true);
    assert.equal(scoreTrajectory({ expected: EXPECTED, actual: ACTUAL, minScore: 0.6, mode: 'lcs' }).passed, false);
  });
});
