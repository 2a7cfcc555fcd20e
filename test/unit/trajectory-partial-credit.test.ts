import assert from 'node:assert/strict';
import { argsScore } from '../../domain/trajectory/args-score';
import type { ExpectedCall } from '../../domain/trajectory/expected-call';
import { scoreTrajectory, type TrajectoryDetail } from '../../domain/trajectory/trajectory';
import type { ToolCall } from '../../domain/trajectory/tool-call';
import type { TrajectoryMatch } from '../../domain/trajectory/trajectory-modes';
import { BOOK, EXPECTED, RECEIPT, SEARCH, WEATHER } from '../helpers/trajectory-fixtures';

const score = (mode: TrajectoryMatch, expected: readonly ExpectedCall[], actual: readonly ToolCall[]) => {
  const result = scoreTrajectory({ expected, actual, minScore: 1, mode });
  return { score: result.score, detail: result.detail as TrajectoryDetail };
};
// The docs' second worked example: the agent searched for three passengers instead of two, booked and sent no receipt.
const WRONG_SEARCH: ToolCall = { tool_name: 'search_flights', tool_args: { to: 'LIS', passengers: 3 } };

describe('partial credit: args_score, partial and f1', () => {
  it('scores the fraction of expected args matched, matchers included, extra keys by args_match', () => {
    assert.equal(argsScore(SEARCH.tool_args, WRONG_SEARCH.tool_args), 1 / 2);
    assert.equal(
      argsScore({ to: { $regex: '^L' }, passengers: { $number: { max: 2 } } }, WRONG_SEARCH.tool_args),
      1 / 2,
    );
    assert.equal(argsScore({ to: 'LIS' }, WRONG_SEARCH.tool_args), 1 / 2, 'exact: the extra key counts unmatched');
    assert.equal(argsScore({ to: 'LIS' }, WRONG_SEARCH.tool_args, 'subset'), 1);
    assert.equal(argsScore({ to: 'OPO' }, WRONG_SEARCH.tool_args, 'ignore'), 1);
    assert.equal(argsScore({}, {}), 1);
    assert.equal(argsScore({ to: 'LIS' }, {}), 0);
  });

  it('gives each expected call an args_score in every mode: 1 when matched, the nearest call of its tool when missing', () => {
    const { detail } = score('lcs', EXPECTED, [WRONG_SEARCH, BOOK, WEATHER]);
    assert.deepEqual(
      detail.matched.map((m) => [m.expected_index, m.args_score]),
      [[1, 1]],
    );
    assert.deepEqual(
      detail.missing.map((m) => [m.expected_index, m.args_score]),
      [
        [0, 1 / 2],
        [2, 0],
      ],
    );
  });

  it('partial: aligns by tool name in order and credits each pair with its args_score over the longer list', () => {
    const { score: partial, detail } = score('partial', EXPECTED, [WRONG_SEARCH, BOOK, WEATHER]);
    assert.equal(partial, (1 / 2 + 1) / 3);
    assert.deepEqual(
      detail.matched.map((m) => [m.expected_index, m.actual_index, m.args_score]),
      [
        [0, 0, 1 / 2],
        [1, 1, 1],
      ],
    );
    assert.deepEqual(detail.matched[0].actual_tool_args, WRONG_SEARCH.tool_args);
    assert.equal(detail.matched[1].actual_tool_args, undefined, 'a plain call that matched whole needs no copy');
    assert.deepEqual(
      detail.missing.map((m) => m.expected_index),
      [2],
    );
    assert.equal(score('partial', EXPECTED, EXPECTED).score, 1);
    assert.equal(score('partial', [], []).score, 1);
  });

  it("scores the docs' second worked example by each mode", () => {
    const actual = [WRONG_SEARCH, BOOK, WEATHER];
    const want = { exact: 1 / 3, in_order: 1 / 3, any_order: 1 / 3, lcs: 1 / 3, partial: 1.5 / 3, f1: 2 / 6 };
    for (const [mode, value] of Object.entries(want)) {
      const { score: got, detail } = score(mode as TrajectoryMatch, EXPECTED, actual);
      assert.equal(got, value, mode);
      if (mode !== 'partial')
        assert.deepEqual(
          detail.missing.map((m) => m.args_score),
          [1 / 2, 0],
          mode,
        );
    }
  });

  it('partial: respects an expected server', () => {
    const expected: ExpectedCall[] = [{ ...SEARCH, server: 'flights' }];
    assert.equal(score('partial', expected, [{ ...SEARCH, server: 'other' }]).score, 0);
    assert.equal(score('partial', expected, [{ ...WRONG_SEARCH, server: 'flights' }]).score, 1 / 2);
  });

  it('f1: precision and recall of a one-to-one pairing in any order, whole matches only', () => {
    const { score: f1, detail } = score('f1', EXPECTED, [RECEIPT, WRONG_SEARCH, BOOK, WEATHER]);
    // Matched: receipt and book (the search's args differ); precision 2/4, recall 2/3.
    assert.equal(detail.precision, 2 / 4);
    assert.equal(detail.recall, 2 / 3);
    assert.equal(f1, (2 * 2) / (3 + 4), 'F1 = 2PR ÷ (P + R) = 2·matched ÷ (expected + actual)');
    assert.equal(score('f1', EXPECTED, []).score, 0);
    assert.equal(score('f1', [], [WEATHER]).score, 0);
    assert.equal(score('f1', [], []).score, 1);
    assert.equal(score('lcs', EXPECTED, EXPECTED).detail.precision, undefined, 'only f1 reports the rates');
  });
});
