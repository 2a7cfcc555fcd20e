import { isPlain, pairTable } from './call-matching';
import type { ExpectedCall } from './expected-call';
import type { AlignedPair } from './lcs-alignment';
import type { ToolCall } from './tool-call';
import { alignByMode, DEFAULT_TRAJECTORY_MATCH, type TrajectoryMatch } from './trajectory-modes';
import { notApplicable, scored, type CriterionResult, type NotApplicableDetail } from '../scoring/criteria';

/** An expected call that the agent made at the aligned position. */
export interface MatchedCall extends ToolCall {
  expected_index: number;
  actual_index: number;
  /** The actual call's args, when the expected call held matchers or did not compare args exactly. */
  actual_tool_args?: Record<string, unknown>;
}

/** An expected call that the agent did not make. */
export interface MissingCall extends ToolCall {
  expected_index: number;
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
  expected: readonly ToolCall[],
  actual: readonly ToolCall[],
  pairs: readonly AlignedPair[],
): TrajectoryDetail {
  const detail: TrajectoryDetail = { mode, matched: [], missing: [], extra: [] };
  const [expectedUsed, actualUsed] = [new Uint8Array(expected.length), new Uint8Array(actual.length)];
  for (const [i, j] of pairs) {
    [expectedUsed[i], actualUsed[j]] = [1, 1];
    const actualArgs = isPlain(expected[i]) ? {} : { actual_tool_args: actual[j].tool_args ?? {} };
    detail.matched.push({ expected_index: i, actual_index: j, ...copyCall(expected[i]), ...actualArgs });
  }
  expected.forEach((call, i) => expectedUsed[i] || detail.missing.push({ expected_index: i, ...copyCall(call) }));
  actual.forEach((call, j) => actualUsed[j] || detail.extra.push({ actual_index: j, ...copyCall(call) }));
  return detail;
}

function copyCall(call: ToolCall): ToolCall {
  return {
    tool_name: call.tool_name,
    tool_args: call.tool_args ?? {},
    ...(call.server !== undefined ? { server: call.server } : {}),
  };
}

/** Scores `tool_trajectory_avg_score` by the case's mode (`alignByMode`), in memory linear in the two lengths. */
export function scoreTrajectory(input: TrajectoryInput): CriterionResult<TrajectoryDetail | NotApplicableDetail> {
  if (input.expected == null) {
    return notApplicable('tool_trajectory_avg_score', input.minScore, 'the case has no expected_trajectory');
  }
  const mode = input.mode ?? DEFAULT_TRAJECTORY_MATCH;
  const { pairs, score } = alignByMode(mode, pairTable(input.expected, input.actual));
  return scored(
    'tool_trajectory_avg_score',
    score,
    input.minScore,
    detailOf(mode, input.expected, input.actual, pairs),
  );
}
