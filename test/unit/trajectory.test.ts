import assert from 'node:assert/strict';
import { jsonEqual } from '../../domain/json/json-equal';
import { scoreTrajectory, type TrajectoryDetail } from '../../domain/trajectory/trajectory';
import { type ToolCall } from '../../domain/trajectory/tool-call';

const call = (tool_name: string, tool_args: Record<string, unknown> = {}): ToolCall => ({ tool_name, tool_args });

describe('trajectory', () => {
  it('marks tool_trajectory_avg_score not applicable without an expected trajectory', () => {
    for (const expected of [undefined, null]) {
      const result = scoreTrajectory({ expected, actual: [call('search')], minScore: 1 });
      assert.equal(result.applicable, false);
      assert.equal(result.passed, true);
      assert.equal(result.score, 1);
    }
  });

  it('scores 1.0 when the actual calls are identical to the expected ones', () => {
    const calls = [call('search', { q: 'x' }), call('book', { id: 1 })];
    const result = scoreTrajectory({ expected: calls, actual: calls, minScore: 1 });
    assert.equal(result.score, 1);
    assert.equal(result.passed, true);
    assert.equal((result.detail as TrajectoryDetail).matched.length, 2);
  });

  it('scores an empty expected trajectory with no actual calls as 1.0', () => {
    const result = scoreTrajectory({ expected: [], actual: [], minScore: 1 });
    assert.equal(result.applicable, true);
    assert.equal(result.score, 1);
    assert.equal(result.passed, true);
  });

  it('scores an empty expected trajectory with two actual calls as 0.0 and lists both as extra', () => {
    const result = scoreTrajectory({ expected: [], actual: [call('a'), call('b')], minScore: 1 });
    assert.equal(result.score, 0);
    assert.equal(result.passed, false);
    assert.deepEqual(result.detail, {
      mode: 'lcs',
      matched: [],
      missing: [],
      extra: [
        { actual_index: 0, tool_name: 'a', tool_args: {} },
        { actual_index: 1, tool_name: 'b', tool_args: {} },
      ],
    });
  });

  it('gives partial credit and lists the missing and extra calls', () => {
    const expected = [call('search', { q: 'hotel' }), call('book', { id: 7 }), call('email', { to: 'a@b.c' })];
    const actual = [call('search', { q: 'hotel' }), call('weather'), call('email', { to: 'a@b.c' })];
    const result = scoreTrajectory({ expected, actual, minScore: 1 });
    assert.equal(result.score, 2 / 3);
    assert.equal(result.passed, false);
    assert.deepEqual(result.detail, {
      mode: 'lcs',
      matched: [
        { expected_index: 0, actual_index: 0, tool_name: 'search', tool_args: { q: 'hotel' }, args_score: 1 },
        { expected_index: 2, actual_index: 2, tool_name: 'email', tool_args: { to: 'a@b.c' }, args_score: 1 },
      ],
      missing: [{ expected_index: 1, tool_name: 'book', tool_args: { id: 7 }, args_score: 0 }],
      extra: [{ actual_index: 1, tool_name: 'weather', tool_args: {} }],
    });
  });

  it('divides by the longer sequence, so extra calls lower the score below 1.0', () => {
    const actual = [call('a'), call('b'), call('c'), call('d')];
    const result = scoreTrajectory({ expected: [call('a')], actual, minScore: 0.2 });
    assert.equal(result.score, 0.25);
    assert.equal(result.passed, true);
  });

  it('matches arguments regardless of key order, also in nested objects', () => {
    const expected = [call('book', { hotel: 'Ritz', dates: { from: '1', to: '2' }, guests: [1, 2] })];
    const actual = [call('book', { guests: [1, 2], dates: { to: '2', from: '1' }, hotel: 'Ritz' })];
    assert.equal(scoreTrajectory({ expected, actual, minScore: 1 }).score, 1);
  });

  it('treats a call with different arguments as one missing and one extra call', () => {
    const expected = [call('book', { id: 1 })];
    const result = scoreTrajectory({ expected, actual: [call('book', { id: 2 })], minScore: 1 });
    const detail = result.detail as TrajectoryDetail;
    assert.equal(result.score, 0);
    assert.deepEqual(detail.missing, [{ expected_index: 0, tool_name: 'book', tool_args: { id: 1 }, args_score: 0 }]);
    assert.deepEqual(detail.extra, [{ actual_index: 0, tool_name: 'book', tool_args: { id: 2 } }]);
  });

  it('aligns in order, so swapped calls align only one of them', () => {
    const result = scoreTrajectory({ expected: [call('a'), call('b')], actual: [call('b'), call('a')], minScore: 1 });
    const detail = result.detail as TrajectoryDetail;
    assert.equal(result.score, 0.5);
    assert.equal(detail.matched.length, 1);
    assert.equal(detail.missing.length, 1);
    assert.equal(detail.extra.length, 1);
  });

  it('finds the longest alignment rather than a greedy one', () => {
    const expected = [call('a'), call('b'), call('c'), call('d')];
    const actual = [call('d'), call('a'), call('b'), call('c')];
    const detail = scoreTrajectory({ expected, actual, minScore: 1 }).detail as TrajectoryDetail;
    assert.deepEqual(
      detail.matched.map((m) => m.tool_name),
      ['a', 'b', 'c'],
    );
  });

  describe('jsonEqual', () => {
    it('keeps array order significant and ignores keys holding undefined', () => {
      assert.equal(jsonEqual([1, 2], [2, 1]), false);
      assert.equal(jsonEqual({ a: 1, b: undefined }, { a: 1 }), true);
      assert.equal(jsonEqual({ a: null }, { a: undefined }), false);
      assert.equal(jsonEqual({ a: [1] }, { a: { 0: 1 } }), false);
    });
  });
});
