import { z } from 'zod';
import { hashJson } from './json-hash';
import { lcsAlignment, type AlignedPair, type AlsoMatches } from './lcs-alignment';
import { notApplicable, scored, type CriterionResult, type NotApplicableDetail } from './criteria';

/**
 * Validates one tool call as the spec writes it in `expected_trajectory`. `server` (optional) names the MCP server
 * of an MCP tool; an expected call that gives it matches only a call recorded from that server.
 */
export const toolCallSchema = z.object({
  tool_name: z.string().min(1).max(200),
  tool_args: z.record(z.string(), z.unknown()),
  server: z.string().min(1).max(200).optional(),
});

/** One tool call: the tool's name (an MCP tool's as `GET …/tools` lists it), its arguments, and its MCP server. */
export interface ToolCall {
  tool_name: string;
  tool_args: Record<string, unknown>;
  server?: string;
}

/** An expected call that the agent made at the aligned position. */
export interface MatchedCall extends ToolCall {
  expected_index: number;
  actual_index: number;
}

/** An expected call that the agent did not make. */
export interface MissingCall extends ToolCall {
  expected_index: number;
}

/** A call the agent made that the expected sequence does not contain. */
export interface ExtraCall extends ToolCall {
  actual_index: number;
}

/** Detail of `tool_trajectory_avg_score`: the alignment of expected against actual calls. */
export interface TrajectoryDetail {
  matched: MatchedCall[];
  missing: MissingCall[];
  extra: ExtraCall[];
}

/** Input of `scoreTrajectory`; `expected` absent or null means the case sets no expected trajectory. */
export interface TrajectoryInput {
  expected?: readonly ToolCall[] | null;
  actual: readonly ToolCall[];
  minScore: number;
}

/** Deep equality of JSON-like values; object key order is irrelevant, array order matters. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  // A key holding `undefined` does not survive JSON serialisation, so it must not make two calls differ.
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let defined = 0;
  for (const key of Object.keys(left)) {
    if (left[key] === undefined) continue;
    defined++;
    if (!Object.hasOwn(right, key) || !jsonEqual(left[key], right[key])) return false;
  }
  for (const key of Object.keys(right)) if (right[key] !== undefined) defined--;
  return defined === 0;
}

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

/** An expected call that names a server matches only a call from that server; one that does not, any server. */
function serverMatches(expected: readonly ToolCall[], actual: readonly ToolCall[]): AlsoMatches | undefined {
  if (!expected.some((call) => call.server !== undefined)) return undefined;
  return (i, j) => expected[i].server === undefined || expected[i].server === actual[j].server;
}

// Aligns by name and arguments (ids), and by server where an expected call names one.
function alignCalls(expected: readonly ToolCall[], actual: readonly ToolCall[]): AlignedPair[] {
  const [first, second] = callIds(expected, actual);
  return lcsAlignment(first, second, serverMatches(expected, actual));
}

/**
 * Aligns expected against actual calls by longest common subsequence (same name and deep-equal args), in memory
 * linear in the two lengths (see `lcsAlignment`). On a tie the actual call is the one dropped, so earlier expected
 * calls keep their match.
 */
export function alignTrajectory(expected: readonly ToolCall[], actual: readonly ToolCall[]): TrajectoryDetail {
  return detailOf(expected, actual, alignCalls(expected, actual));
}

function detailOf(expected: readonly ToolCall[], actual: readonly ToolCall[], pairs: AlignedPair[]): TrajectoryDetail {
  const detail: TrajectoryDetail = { matched: [], missing: [], extra: [] };
  let [i, j] = [0, 0];
  for (const [matchedI, matchedJ] of pairs) {
    for (; i < matchedI; i++) detail.missing.push({ expected_index: i, ...copyCall(expected[i]) });
    for (; j < matchedJ; j++) detail.extra.push({ actual_index: j, ...copyCall(actual[j]) });
    detail.matched.push({ expected_index: i++, actual_index: j++, ...copyCall(expected[matchedI]) });
  }
  for (; i < expected.length; i++) detail.missing.push({ expected_index: i, ...copyCall(expected[i]) });
  for (; j < actual.length; j++) detail.extra.push({ actual_index: j, ...copyCall(actual[j]) });
  return detail;
}

function copyCall(call: ToolCall): ToolCall {
  return {
    tool_name: call.tool_name,
    tool_args: call.tool_args ?? {},
    ...(call.server !== undefined ? { server: call.server } : {}),
  };
}

/**
 * Scores `tool_trajectory_avg_score`: aligned calls ÷ max(expected, actual); 1.0 only for identical sequences (an
 * expected call without `server` leaves the server of the call it matches free).
 */
export function scoreTrajectory(input: TrajectoryInput): CriterionResult<TrajectoryDetail | NotApplicableDetail> {
  if (input.expected == null) {
    return notApplicable('tool_trajectory_avg_score', input.minScore, 'the case has no expected_trajectory');
  }
  // One alignment in linear memory: its matched pairs are the longest common subsequence, so they give the score.
  const pairs = alignCalls(input.expected, input.actual);
  const longest = Math.max(input.expected.length, input.actual.length);
  const score = longest === 0 ? 1 : pairs.length / longest;
  const detail = detailOf(input.expected, input.actual, pairs);
  return scored('tool_trajectory_avg_score', score, input.minScore, detail);
}
