import { z } from 'zod';
import { notApplicable, scored, type CriterionResult, type NotApplicableDetail } from './criteria';

/** Validates one tool call as the spec writes it in `expected_trajectory`. */
export const toolCallSchema = z.object({
  tool_name: z.string().min(1).max(200),
  tool_args: z.record(z.string(), z.unknown()),
});

/** One tool call: the tool's name and its arguments. */
export interface ToolCall {
  tool_name: string;
  tool_args: Record<string, unknown>;
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
  const left = definedEntries(a as Record<string, unknown>);
  const right = new Map(definedEntries(b as Record<string, unknown>));
  if (left.length !== right.size) return false;
  return left.every(([key, value]) => right.has(key) && jsonEqual(value, right.get(key)));
}

// A key holding `undefined` does not survive JSON serialisation, so it must not make two calls differ.
function definedEntries(record: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(record).filter(([, value]) => value !== undefined);
}

function sameCall(a: ToolCall, b: ToolCall): boolean {
  return a.tool_name === b.tool_name && jsonEqual(a.tool_args ?? {}, b.tool_args ?? {});
}

/** Aligns expected against actual calls by longest common subsequence (same name and deep-equal args). */
export function alignTrajectory(expected: readonly ToolCall[], actual: readonly ToolCall[]): TrajectoryDetail {
  const rows = expected.length;
  const cols = actual.length;
  // lcs[i][j] = length of the longest common subsequence of expected[i..] and actual[j..]
  const lcs: number[][] = Array.from({ length: rows + 1 }, () => new Array<number>(cols + 1).fill(0));
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      lcs[i][j] = sameCall(expected[i], actual[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const detail: TrajectoryDetail = { matched: [], missing: [], extra: [] };
  let i = 0;
  let j = 0;
  while (i < rows && j < cols) {
    if (sameCall(expected[i], actual[j])) {
      detail.matched.push({ expected_index: i, actual_index: j, ...copyCall(expected[i]) });
      i++;
      j++;
    } else if (lcs[i + 1][j] > lcs[i][j + 1]) {
      detail.missing.push({ expected_index: i, ...copyCall(expected[i]) });
      i++;
    } else {
      // On a tie the actual call is the one dropped, so earlier expected calls keep their match.
      detail.extra.push({ actual_index: j, ...copyCall(actual[j]) });
      j++;
    }
  }
  for (; i < rows; i++) detail.missing.push({ expected_index: i, ...copyCall(expected[i]) });
  for (; j < cols; j++) detail.extra.push({ actual_index: j, ...copyCall(actual[j]) });
  return detail;
}

function copyCall(call: ToolCall): ToolCall {
  return { tool_name: call.tool_name, tool_args: call.tool_args ?? {} };
}

/** Scores `tool_trajectory_avg_score`: aligned calls ÷ max(expected, actual); 1.0 only for identical sequences. */
export function scoreTrajectory(input: TrajectoryInput): CriterionResult<TrajectoryDetail | NotApplicableDetail> {
  if (input.expected == null) {
    return notApplicable('tool_trajectory_avg_score', input.minScore, 'the case has no expected_trajectory');
  }
  const detail = alignTrajectory(input.expected, input.actual);
  const longest = Math.max(input.expected.length, input.actual.length);
  const score = longest === 0 ? 1 : detail.matched.length / longest;
  return scored('tool_trajectory_avg_score', score, input.minScore, detail);
}
