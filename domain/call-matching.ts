import { argsMatch, containsMatcher } from './arg-matchers';
import type { ExpectedCall } from './expected-call';
import { hashJson } from './json-hash';
import { jsonEqual } from './json-equal';
import type { PairMatch } from './lcs-alignment';
import type { ToolCall } from './trajectory';

/**
 * The same id for equal calls (same name and deep-equal args), so the alignment compares integers instead of walking
 * arguments n×m times. Calls are bucketed by hash and a hit is confirmed with `jsonEqual`, so ids follow it exactly.
 */
function callIds(expected: readonly ToolCall[], actual: readonly ToolCall[]): [Int32Array, Int32Array] {
  const idsByHash = new Map<number, number[]>();
  const representatives: ToolCall[] = [];
  const idOf = (call: ToolCall): number => {
    const hash = (hashJson(call.tool_name) ^ hashJson(call.tool_args ?? {})) | 0;
    const ids = idsByHash.get(hash);
    for (const id of ids ?? []) if (sameCall(representatives[id], call)) return id;
    if (ids) ids.push(representatives.length);
    else idsByHash.set(hash, [representatives.length]);
    return representatives.push(call) - 1;
  };
  const idsOf = (calls: readonly ToolCall[]): Int32Array => {
    const ids = new Int32Array(calls.length);
    for (let i = 0; i < calls.length; i++) ids[i] = idOf(calls[i]);
    return ids;
  };
  return [idsOf(expected), idsOf(actual)];
}

function sameCall(a: ToolCall, b: ToolCall): boolean {
  return a.tool_name === b.tool_name && jsonEqual(a.tool_args ?? {}, b.tool_args ?? {});
}

/** An expected call compared by plain equality: exact args (the default) and no matcher in them. */
export const isPlain = (call: ExpectedCall): boolean =>
  (call.args_match ?? 'exact') === 'exact' && !containsMatcher(call.tool_args ?? {});

/** Whether one expected call accepts one actual call: same tool name, and args as its `args_match` and matchers say. */
export function callMatches(expected: ExpectedCall, actual: ToolCall): boolean {
  return (
    expected.tool_name === actual.tool_name && argsMatch(expected.tool_args, actual.tool_args, expected.args_match)
  );
}

/**
 * Whether expected call i accepts actual call j, for every pair. Plain expectations (exact args, no matcher) compare
 * call ids, an equivalence. Matchers are not one (`{"$any": true}` accepts calls that differ), so then every pair of
 * the same tool name is decided once, into a bit table of expected × actual bits (1,000 × 1,000 is 125 KB); equal
 * actual calls share one decision per expected call.
 */
export function pairMatcher(expected: readonly ExpectedCall[], actual: readonly ToolCall[]): PairMatch {
  if (expected.every(isPlain)) {
    const [expectedIds, actualIds] = callIds(expected, actual);
    return (i, j) => expectedIds[i] === actualIds[j];
  }
  const [, actualIds] = callIds([], actual);
  const width = actual.length;
  const bits = new Uint8Array(Math.ceil((expected.length * width) / 8));
  expected.forEach((call, i) => {
    const decided = new Map<number, boolean>();
    for (let j = 0; j < width; j++) {
      if (call.tool_name !== actual[j].tool_name) continue;
      let accepted = decided.get(actualIds[j]);
      if (accepted === undefined) decided.set(actualIds[j], (accepted = callMatches(call, actual[j])));
      if (accepted) bits[(i * width + j) >> 3] |= 1 << ((i * width + j) & 7);
    }
  });
  return (i, j) => (bits[(i * width + j) >> 3] & (1 << ((i * width + j) & 7))) !== 0;
}
