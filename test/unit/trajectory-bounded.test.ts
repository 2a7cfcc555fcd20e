import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LIMITS } from '../../domain/limits';
import { jsonEqual } from '../../domain/json/json-equal';
import { argsScore } from '../../domain/trajectory/args-score';
import { scoreTrajectory, type TrajectoryDetail } from '../../domain/trajectory/trajectory';
import { type ToolCall } from '../../domain/trajectory/tool-call';
import { peakHeapGrowth } from '../helpers/heap-growth';

const call = (tool_name: string, tool_args: Record<string, unknown> = {}): ToolCall => ({ tool_name, tool_args });
const rows = LIMITS.toolCallsPerExpectedTrajectory;
const cols = LIMITS.toolCallsPerConversation;

// The scorer as it was before it had to fit in linear memory: the full suffix table, walked from the start.
function tableAlignment(expected: readonly ToolCall[], actual: readonly ToolCall[]): TrajectoryDetail {
  const same = (a: ToolCall, b: ToolCall): boolean =>
    a.tool_name === b.tool_name && jsonEqual(a.tool_args, b.tool_args);
  const lcs = Array.from({ length: expected.length + 1 }, () => new Array<number>(actual.length + 1).fill(0));
  for (let i = expected.length - 1; i >= 0; i--) {
    for (let j = actual.length - 1; j >= 0; j--) {
      lcs[i][j] = same(expected[i], actual[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const detail: TrajectoryDetail = { mode: 'lcs', matched: [], missing: [], extra: [] };
  // A missing call's args_score: its best against any actual call of the same tool.
  const nearest = (e: ToolCall): number =>
    Math.max(0, ...actual.filter((a) => a.tool_name === e.tool_name).map((a) => argsScore(e.tool_args, a.tool_args)));
  const missing = (i: number) => ({ expected_index: i, ...expected[i], args_score: nearest(expected[i]) });
  let [i, j] = [0, 0];
  while (i < expected.length && j < actual.length) {
    if (same(expected[i], actual[j]))
      detail.matched.push({ expected_index: i++, actual_index: j++, ...expected[i - 1], args_score: 1 });
    else if (lcs[i + 1][j] > lcs[i][j + 1]) detail.missing.push(missing(i++));
    else detail.extra.push({ actual_index: j++, ...actual[j - 1] });
  }
  for (; i < expected.length; i++) detail.missing.push(missing(i));
  for (; j < actual.length; j++) detail.extra.push({ actual_index: j, ...actual[j] });
  return detail;
}

// Few distinct calls, so random sequences share many and ties between alignments are common.
const callArb = fc.record({
  tool_name: fc.constantFrom('a', 'b', 'c'),
  tool_args: fc.constantFrom({}, { x: 1 }, { x: 1, y: undefined }, { y: [1, { z: 2 }] }, { y: [{ z: 2 }, 1] }),
});

describe('trajectory scoring in bounded memory', () => {
  it('gives the same score and detail as the full-table alignment on random sequences', () => {
    fc.assert(
      fc.property(fc.array(callArb, { maxLength: 24 }), fc.array(callArb, { maxLength: 24 }), (expected, actual) => {
        const result = scoreTrajectory({ expected, actual, minScore: 1 });
        const reference = tableAlignment(expected, actual);
        assert.deepEqual(result.detail, reference);
        assert.equal(
          result.score,
          Math.max(expected.length, actual.length) === 0
            ? 1
            : reference.matched.length / Math.max(expected.length, actual.length),
        );
      }),
      { seed: 9_002, numRuns: 500 },
    );
  });

  it('scores the largest allowed rotated trajectory at 1/2 and keeps the earlier expected half matched', () => {
    const expected = Array.from({ length: rows }, (_, i) => call(`tool_${i}`, { step: i }));
    const half = cols / 2;
    // The agent did the second half first: either half aligns (LCS = half); the tie keeps the first half's matches.
    const actual = [...expected.slice(half, cols), ...expected.slice(0, half)];
    const result = scoreTrajectory({ expected, actual, minScore: 0.5 });
    const detail = result.detail as TrajectoryDetail;
    assert.equal(result.score, half / rows);
    assert.deepEqual(
      detail.matched.map((m) => [m.expected_index, m.actual_index]),
      Array.from({ length: half }, (_, i) => [i, half + i]),
    );
    assert.deepEqual(
      detail.missing.map((m) => m.expected_index),
      Array.from({ length: rows - half }, (_, i) => half + i),
    );
  });

  it('scores the largest allowed trajectory of repeated calls by the number of aligned repeats', () => {
    const expected = Array.from({ length: rows }, () => call('search', { q: 'x' }));
    // Alternating with another tool: half the actual calls are the expected one, so half of them align.
    const actual = Array.from({ length: cols }, (_, j) => (j % 2 === 0 ? call('noise') : call('search', { q: 'x' })));
    const result = scoreTrajectory({ expected, actual, minScore: 0.5 });
    const detail = result.detail as TrajectoryDetail;
    assert.equal(result.score, cols / 2 / Math.max(rows, cols));
    assert.deepEqual(
      detail.matched.map((m) => [m.expected_index, m.actual_index]),
      Array.from({ length: cols / 2 }, (_, i) => [i, 2 * i + 1]),
    );
    assert.equal(detail.extra.length, cols / 2);
    assert.ok(detail.extra.every((e) => e.tool_name === 'noise'));
  });

  it('holds memory linear in the input: a fraction of the table the scorer used to build', () => {
    const expected = Array.from({ length: rows }, (_, i) => call(`tool_${i % 7}`, { step: i % 5 }));
    const actual = Array.from({ length: cols }, (_, j) => call(`tool_${j % 5}`, { step: j % 7 }));
    // Compiling the scorer's code allocates on the heap too, and so does its unoptimised code (boxed numbers): warm it
    // up until the optimising compiler has it so only the scoring itself is measured. Node 24's V8 gets there later
    // than Node 20's (Maglev first, then TurboFan): about six runs of this size.
    for (let run = 0; run < 10; run++) scoreTrajectory({ expected, actual, minScore: 1 });
    // What the full-table scorer held: (expected+1)×(actual+1) numbers of 8 bytes each (a lower bound: arrays carry
    // headers too). Computed rather than measured: a major collection of other tests' garbage while a table is built
    // can make its measured growth negative. The scoring's growth counts every allocation, garbage included, so it
    // bounds the scorer's peak from above.
    const table = { bytes: (rows + 1) * (cols + 1) * 8 };
    // The least growth of five scorings: one measurement also catches unrelated allocation (a GC's timing, the
    // profiler's own), which made a single one flaky near the bound; a table-building scorer grows by the table each time.
    const scorings = Array.from({ length: 5 }, () =>
      peakHeapGrowth(() => scoreTrajectory({ expected, actual, minScore: 1 })),
    );
    const scoring = scorings.reduce((least, next) => (next.bytes < least.bytes ? next : least));
    assert.equal(scoring.result.score, (scoring.result.detail as TrajectoryDetail).matched.length / rows);
    assert.ok(
      // Half the table: a table-building scorer allocates at least the whole table, and the measurement itself
      // (peak heap between collections) swings by ±1 MB on a loaded machine around the scorer's ~1.5 MB of detail
      // (each call's args_score, a missing call's nearest match).
      scoring.bytes * 2 < table.bytes,
      `scoring grew the heap by ${scoring.bytes} bytes; a ${rows}x${cols} table takes ${table.bytes}`,
    );
  });
});
