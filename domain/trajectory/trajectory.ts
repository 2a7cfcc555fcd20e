import { argsScore } from './args-score';
import { isPlain, nameTable, pairTable, sameCall } from './call-matching';
import { hashJson } from '../json/json-hash';
import type { ExpectedCall } from './expected-call';
import type { AlignedPair } from './lcs-alignment';
import type { ToolCall } from './tool-call';
import { alignByMode, DEFAULT_TRAJECTORY_MATCH, type PairCredit, type TrajectoryMatch } from './trajectory-modes';
import { notApplicable, scored, type CriterionResult, type NotApplicableDetail } from '../scoring/criteria';

/** An expected call that the agent made at the aligned position. */
export interface MatchedCall extends ToolCall {
  expected_index: number;
  actual_index: number;
  /** The fraction of expected args the actual call matched (1 but in `partial` mode; see `argsScore`). */
  args_score: number;
  /** The actual call's args, when the expected call held matchers, did not compare args exactly or scored below 1. */
  actual_tool_args?: Record<string, unknown>;
}

/** An expected call that the agent did not make. */
export interface MissingCall extends ToolCall {
  expected_index: number;
  /** The best `argsScore` of an actual call of the same tool (and server), 0 when the agent never called it. */
  args_score: number;
}

/** A call the agent made that the expected sequence does not contain. */
export interface ExtraCall extends ToolCall {
  actual_index: number;
}

/** Detail of `tool_trajectory_avg_score`: the mode and the alignment of expected against actual calls. */
export interface TrajectoryDetail {
  mode: TrajectoryMatch;
  matched: MatchedCall[];
  missing: MissingCall[];
  extra: ExtraCall[];
  /** `f1` only: matched ÷ actual and matched ÷ expected calls. */
  precision?: number;
  recall?: number;
}

/** Input of `scoreTrajectory`; `expected` absent or null means the case sets no expected trajectory. */
export interface TrajectoryInput {
  expected?: readonly ExpectedCall[] | null;
  actual: readonly ToolCall[];
  minScore: number;
  mode?: TrajectoryMatch;
}

function detailOf(
  mode: TrajectoryMatch,
  expected: readonly ExpectedCall[],
  actual: readonly ToolCall[],
  pairs: readonly AlignedPair[],
  credit: PairCredit,
): TrajectoryDetail {
  const detail: TrajectoryDetail = { mode, matched: [], missing: [], extra: [] };
  const [expectedUsed, actualUsed] = [new Uint8Array(expected.length), new Uint8Array(actual.length)];
  for (const [i, j] of pairs) {
    [expectedUsed[i], actualUsed[j]] = [1, 1];
    const entry = withCall({ expected_index: i, actual_index: j, args_score: 0 }, expected[i]) as MatchedCall;
    entry.args_score = credit(i, j);
    if (!isPlain(expected[i]) || entry.args_score !== 1) entry.actual_tool_args = actual[j].tool_args ?? {};
    detail.matched.push(entry);
  }
  const nearest = nearestArgsScore(actual);
  expected.forEach(
    (call, i) =>
      expectedUsed[i] || detail.missing.push(withCall({ expected_index: i, args_score: nearest(call) }, call)),
  );
  actual.forEach((call, j) => actualUsed[j] || detail.extra.push(withCall({ actual_index: j }, call)));
  return detail;
}

// A detail entry: its indexes plus the call's name, args and server, built in place (no temporary copies: a long
// trajectory's detail is most of what scoring allocates).
function withCall<T extends object>(entry: T, call: ToolCall): T & ToolCall {
  const out = entry as T & ToolCall;
  out.tool_name = call.tool_name;
  out.tool_args = call.tool_args ?? {};
  if (call.server !== undefined) out.server = call.server;
  return out;
}

// The best args_score an expected call gets against the actual calls of its tool, each distinct call tried once
// (bucketed by hash, confirmed equal), built only when some expected call is missing.
function nearestArgsScore(actual: readonly ToolCall[]): (call: ExpectedCall) => number {
  let byName: Map<string, ToolCall[]> | undefined;
  const distinctByName = (): Map<string, ToolCall[]> => {
    const seen = new Map<number, ToolCall[]>();
    const calls = new Map<string, ToolCall[]>();
    for (const call of actual) {
      const hash = (hashJson(call.tool_name) ^ hashJson(call.tool_args ?? {}) ^ hashJson(call.server ?? '')) | 0;
      const same = seen.get(hash);
      if (same?.some((other) => sameCall(other, call) && other.server === call.server)) continue;
      // Pushed in place: a long trajectory of few tools must not copy its lists on every call.
      if (same) same.push(call);
      else seen.set(hash, [call]);
      const named = calls.get(call.tool_name);
      if (named) named.push(call);
      else calls.set(call.tool_name, [call]);
    }
    return calls;
  };
  return (call) => {
    byName ??= distinctByName();
    let best = 0;
    for (const candidate of byName.get(call.tool_name) ?? []) {
      if (call.server !== undefined && call.server !== candidate.server) continue;
      best = Math.max(best, argsScore(call.tool_args, candidate.tool_args, call.args_match));
      if (best === 1) break;
    }
    return best;
  };
}

/** Scores `tool_trajectory_avg_score` by the case's mode (`alignByMode`), in memory linear in the two lengths. */
export function scoreTrajectory(input: TrajectoryInput): CriterionResult<TrajectoryDetail | NotApplicableDetail> {
  if (input.expected == null) {
    return notApplicable('tool_trajectory_avg_score', input.minScore, 'the case has no expected_trajectory');
  }
  const { expected, actual } = input;
  const mode = input.mode ?? DEFAULT_TRAJECTORY_MATCH;
  const partial = mode === 'partial';
  const credit: PairCredit = partial
    ? (i, j) => argsScore(expected[i].tool_args, actual[j].tool_args, expected[i].args_match)
    : () => 1;
  const table = partial ? nameTable(expected, actual) : pairTable(expected, actual);
  const { pairs, score, precision, recall } = alignByMode(mode, table, credit);
  const detail = detailOf(mode, expected, actual, pairs, credit);
  const rates = precision === undefined ? {} : { precision, recall };
  return scored('tool_trajectory_avg_score', score, input.minScore, { ...detail, ...rates });
}
