import { argsMatch, containsMatcher } from './arg-matchers';
import type { ExpectedCall } from './expected-call';
import { hashJson } from '../json/json-hash';
import { jsonEqual } from '../json/json-equal';
import { PairTable } from './pair-table';
import type { ToolCall } from './tool-call';

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

/** Same tool name and deep-equal args (the server aside). */
export function sameCall(a: ToolCall, b: ToolCall): boolean {
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

/** An expected call that names an MCP server accepts only a call recorded from that server; one that does not, any. */
const serverAccepts = (expected: ExpectedCall, actual: ToolCall): boolean =>
  expected.server === undefined || expected.server === actual.server;

/** `partial` mode's table: the pairs of the same tool name whose server the expected call accepts (args aside). */
export function nameTable(expected: readonly ExpectedCall[], actual: readonly ToolCall[]): PairTable {
  const table = new PairTable(expected.length, actual.length);
  expected.forEach((call, i) => {
    for (let j = 0; j < actual.length; j++)
      if (call.tool_name === actual[j].tool_name && serverAccepts(call, actual[j])) table.set(i, j);
  });
  return table;
}

/**
 * Which expected call accepts which actual call (an expected `server`, when given, must be the call's too). Plain expectations (exact args, no matcher) compare call ids, an
 * equivalence: each expected call marks the actual calls of its id. Matchers are not one (`{"$any": true}` accepts
 * calls that differ), so then every pair of the same tool name is decided, once per distinct actual call.
 */
export function pairTable(expected: readonly ExpectedCall[], actual: readonly ToolCall[]): PairTable {
  const table = new PairTable(expected.length, actual.length);
  const plain = expected.every(isPlain);
  const [expectedIds, actualIds] = callIds(plain ? expected : [], actual);
  const actualOfId = new Map<number, number[]>();
  actualIds.forEach((id, j) => {
    const calls = actualOfId.get(id);
    if (calls) calls.push(j);
    else actualOfId.set(id, [j]);
  });
  expected.forEach((call, i) => {
    const accepted = plain
      ? [actualOfId.get(expectedIds[i]) ?? []]
      : [...actualOfId.values()].filter(([j]) => callMatches(call, actual[j]));
    for (const calls of accepted) for (const j of calls) if (serverAccepts(call, actual[j])) table.set(i, j);
  });
  return table;
}
