import assert from 'node:assert/strict';
import { scoreTrajectory, type TrajectoryDetail } from '../../domain/trajectory/trajectory';
import { type ToolCall } from '../../domain/trajectory/tool-call';

const sum = (server?: string, a = 1): ToolCall => ({
  tool_name: 'get-sum',
  tool_args: { a },
  ...(server ? { server } : {}),
});
const score = (expected: ToolCall[], actual: ToolCall[]): { score: number; detail: TrajectoryDetail } => {
  const result = scoreTrajectory({ expected, actual, minScore: 1 });
  return { score: result.score, detail: result.detail as TrajectoryDetail };
};

describe('trajectory: the server of an MCP call', () => {
  it('matches an expected call without server against a call from any server', () => {
    const result = score([sum()], [sum('everything')]);
    assert.equal(result.score, 1);
    assert.deepEqual(result.detail, {
      mode: 'lcs',
      matched: [{ expected_index: 0, actual_index: 0, tool_name: 'get-sum', tool_args: { a: 1 }, args_score: 1 }],
      missing: [],
      extra: [],
    });
  });

  it('matches an expected call naming a server only against a call from that server', () => {
    assert.equal(score([sum('everything')], [sum('everything')]).score, 1);
    const other = score([sum('everything')], [sum('other')]);
    assert.equal(other.score, 0);
    assert.deepEqual(other.detail, {
      mode: 'lcs',
      matched: [],
      missing: [{ expected_index: 0, tool_name: 'get-sum', tool_args: { a: 1 }, server: 'everything', args_score: 0 }],
      extra: [{ actual_index: 0, tool_name: 'get-sum', tool_args: { a: 1 }, server: 'other' }],
    });
    assert.equal(score([sum('everything')], [sum()]).score, 0, 'a call with no server is from no named server');
  });

  it('aligns mixed expectations: same name and arguments, servers told apart where named', () => {
    // Expected: any server, then "b"; actual: "a", "b". The first matches "a", the second "b".
    assert.equal(score([sum(), sum('b')], [sum('a'), sum('b')]).score, 1);
    // Expected "b" then any: "b" matches the second actual call, and nothing after it is left for the other.
    const result = score([sum('b'), sum()], [sum('a'), sum('b')]);
    assert.equal(result.score, 0.5);
    assert.deepEqual(
      result.detail.matched.map((m) => [m.expected_index, m.actual_index]),
      [[0, 1]],
    );
  });
});
