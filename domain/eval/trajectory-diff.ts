import { stableJson } from '../mcp/tool-changes';
import { lcsAlignment } from '../trajectory/lcs-alignment';
import { PairTable } from '../trajectory/pair-table';
import type { ToolCall } from '../trajectory/tool-call';

/** An argument whose value differs between a baseline call and its matched call in the run (absent: not given). */
export interface ArgumentChange {
  argument: string;
  baseline?: unknown;
  run?: unknown;
}

/** One row of an aligned trajectory diff, in call order. */
export type TrajectoryDiffRow =
  | {
      kind: 'matched';
      tool_name: string;
      baseline_index: number;
      run_index: number;
      argument_changes: ArgumentChange[];
    }
  | { kind: 'missing'; tool_name: string; baseline_index: number; tool_args: Record<string, unknown> }
  | { kind: 'extra'; tool_name: string; run_index: number; tool_args: Record<string, unknown> };

/** The baseline's calls aligned against the run's, with counts (`changed`: matched pairs whose arguments differ). */
export interface TrajectoryDiff {
  rows: TrajectoryDiffRow[];
  matched: number;
  changed: number;
  missing: number;
  extra: number;
}

const sameTool = (a: ToolCall, b: ToolCall): boolean => a.tool_name === b.tool_name && a.server === b.server;

/** The top-level arguments whose values differ (compared as stable JSON), by name. */
export function argumentChanges(baseline: Record<string, unknown>, run: Record<string, unknown>): ArgumentChange[] {
  const names = [...new Set([...Object.keys(baseline), ...Object.keys(run)])].sort();
  return names.flatMap((argument) => {
    const [before, after] = [baseline[argument], run[argument]];
    if (before !== undefined && after !== undefined && stableJson(before) === stableJson(after)) return [];
    return [
      {
        argument,
        ...(before !== undefined ? { baseline: before } : {}),
        ...(after !== undefined ? { run: after } : {}),
      },
    ];
  });
}

/**
 * Aligns the baseline's calls with the run's: the longest common subsequence by tool (name and server) pairs calls,
 * each pair listing its argument changes; baseline calls left over are `missing`, run calls left over `extra`. Rows
 * follow the calls' order (a missing call before an extra one at the same place).
 */
export function diffTrajectories(baseline: readonly ToolCall[], run: readonly ToolCall[]): TrajectoryDiff {
  const table = new PairTable(baseline.length, run.length);
  baseline.forEach((call, i) => run.forEach((other, j) => sameTool(call, other) && table.set(i, j)));
  const rows: TrajectoryDiffRow[] = [];
  let [i, j] = [0, 0];
  const flush = (untilI: number, untilJ: number): void => {
    for (; i < untilI; i++)
      rows.push({
        kind: 'missing',
        tool_name: baseline[i].tool_name,
        baseline_index: i,
        tool_args: baseline[i].tool_args,
      });
    for (; j < untilJ; j++)
      rows.push({ kind: 'extra', tool_name: run[j].tool_name, run_index: j, tool_args: run[j].tool_args });
  };
  let changed = 0;
  for (const [pi, pj] of lcsAlignment(table)) {
    flush(pi, pj);
    const argument_changes = argumentChanges(baseline[pi].tool_args ?? {}, run[pj].tool_args ?? {});
    if (argument_changes.length) changed++;
    rows.push({ kind: 'matched', tool_name: run[pj].tool_name, baseline_index: pi, run_index: pj, argument_changes });
    [i, j] = [pi + 1, pj + 1];
  }
  flush(baseline.length, run.length);
  const count = (kind: TrajectoryDiffRow['kind']): number => rows.filter((row) => row.kind === kind).length;
  return { rows, matched: count('matched'), changed, missing: count('missing'), extra: count('extra') };
}

interface DetailCall extends ToolCall {
  actual_index: number;
  actual_tool_args?: Record<string, unknown>;
}

/**
 * The calls a case's agent made, in order, read back from its `tool_trajectory_avg_score` detail (the matched calls
 * with the actual arguments, and the extra ones); null when the detail has no alignment (the case set no expected
 * trajectory, or the criterion was not scored).
 */
export function actualCallsOf(detail: unknown): ToolCall[] | null {
  const { matched, extra } = (detail ?? {}) as { matched?: unknown; extra?: unknown };
  if (!Array.isArray(matched) || !Array.isArray(extra)) return null;
  return ([...matched, ...extra] as DetailCall[])
    .sort((a, b) => a.actual_index - b.actual_index)
    .map((call) => ({
      tool_name: call.tool_name,
      tool_args: call.actual_tool_args ?? call.tool_args ?? {},
      ...(call.server !== undefined ? { server: call.server } : {}),
    }));
}

/**
 * Each regressed case with the diff of the baseline's calls against the run's (null when either run has no
 * alignment of the case's calls); other cases as they are.
 */
export function withTrajectoryDiffs<T extends { case_id: string; transition: string }>(
  cases: readonly T[],
  runDetails: ReadonlyMap<string, unknown>,
  baselineDetails: ReadonlyMap<string, unknown>,
): Array<T & { trajectory_diff?: TrajectoryDiff | null }> {
  return cases.map((entry) => {
    if (entry.transition !== 'regressed') return entry;
    const [run, baseline] = [runDetails, baselineDetails].map((details) => actualCallsOf(details.get(entry.case_id)));
    return { ...entry, trajectory_diff: run && baseline ? diffTrajectories(baseline, run) : null };
  });
}
