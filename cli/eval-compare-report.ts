import { LIMITS } from '../domain/limits';
import { ApiError, type ApiClient } from './api-client';
import { compareQuery, type Baseline, type RegressionGate } from './eval-gate-options';
import { TRANSITIONS } from '../domain/eval/run-comparison';
import { efficiencyLines } from './eval-efficiency-report';
import type { TrajectoryDiff } from '../domain/eval/trajectory-diff';
import {
  CRITERIA_ORDER,
  type CaseComparisonJson,
  type ComparisonJson,
  type CriterionDeltaJson,
} from './eval-run.types';

const enc = encodeURIComponent;
type ComparePage = { data: ComparisonJson & { next_cursor: string | null } };

/**
 * The run compared with its baseline, every page of cases gathered; null when the API finds no baseline run (a set's
 * first run, or a tag no completed run carries yet): the gate then stands on the pass rate alone.
 */
export async function fetchComparison(
  api: ApiClient,
  runPath: string,
  baseline: Baseline,
  gate: RegressionGate | null = null,
): Promise<ComparisonJson | null> {
  const query = `${runPath}/compare?${compareQuery(baseline, gate)}&limit=${LIMITS.pageMax}`;
  let first: ComparePage['data'] | null = null;
  const cases: CaseComparisonJson[] = [];
  let cursor: string | null = null;
  do {
    let page: ComparePage;
    try {
      page = await api.get<ComparePage>(cursor ? `${query}&cursor=${enc(cursor)}` : query);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'baseline_not_found') return null;
      throw error;
    }
    first ??= page.data;
    cases.push(...page.data.cases);
    cursor = page.data.next_cursor;
  } while (cursor);
  const { run_id, baseline_run_id, summary, verdicts, statistics, regression, efficiency } = first;
  return { run_id, baseline_run_id, summary, verdicts, statistics, regression, efficiency, cases };
}

// Criteria in the order the results table prints its columns (any other last).
const rank = (name: string): number => {
  const i = CRITERIA_ORDER.indexOf(name);
  return i === -1 ? CRITERIA_ORDER.length : i;
};
const score = (n: number | null): string => (n === null ? '-' : n.toFixed(2));
const signed = (n: number): string => `${n > 0 ? '+' : ''}${n.toFixed(2)}`;

function criterionChange(name: string, c: CriterionDeltaJson): string {
  return `${name} ${score(c.baseline)} → ${score(c.run)}${c.delta === null ? '' : ` (${signed(c.delta)})`}`;
}

const turn = (n: number | null): string => (n === null ? 'none' : `turn ${n}`);

/**
 * One case's line: its name, baseline → now status, the turn that failed first in each run (a case scored by turns),
 * and every criterion whose score moved (or (stopped) applying).
 */
export function caseChange(c: CaseComparisonJson): string {
  const moved = Object.entries(c.criteria)
    .filter(([, d]) => d.run !== d.baseline)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([name, d]) => criterionChange(name, d));
  const status = `${c.baseline_status ?? 'none'} → ${c.status ?? 'none'}`;
  const first = c.first_failed_turn;
  const turns = first ? `; first failed turn ${turn(first.baseline)} → ${turn(first.run)}` : '';
  return `${c.case_name}: ${status}${turns}${moved.length ? `; ${moved.join(', ')}` : ''}`;
}

const json = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));

/** A regressed case's trajectory diff, indented under its line: each baseline call against the run's. */
export function trajectoryDiffLines(diff: TrajectoryDiff | null): string[] {
  if (!diff) return ['    trajectory diff: not available (no expected_trajectory alignment in either run)'];
  const lines = [
    `    trajectory diff: ${diff.matched} matched (${diff.changed} with other arguments), ${diff.missing} missing, ${diff.extra} extra`,
  ];
  for (const row of diff.rows) {
    if (row.kind === 'missing')
      lines.push(`    - missing ${row.tool_name} ${json(row.tool_args)} (baseline call ${row.baseline_index})`);
    else if (row.kind === 'extra')
      lines.push(`    + extra ${row.tool_name} ${json(row.tool_args)} (run call ${row.run_index})`);
    else {
      const changes = row.argument_changes.map((c) => `${c.argument}: ${json(c.baseline)} → ${json(c.run)}`);
      lines.push(`    = ${row.tool_name}${changes.length ? ` arguments ${changes.join(', ')}` : ''}`);
    }
  }
  return lines;
}

/** A p-value as the report prints it: `p = ` three significant digits, or `p < 0.001`. */
export const formatP = (p: number): string => (p < 0.001 ? 'p < 0.001' : `p = ${p.toPrecision(3)}`);

const TITLES = { regressed: 'REGRESSED', improved: 'FIXED', flaky: 'FLAKY' } as const;

// A case's title: its verdict (an API without verdicts: its transition, regressed or fixed).
function titleOf(c: CaseComparisonJson): string | null {
  if (c.verdict !== undefined) return c.verdict ? TITLES[c.verdict] : null;
  return c.transition === 'regressed' ? TITLES.regressed : c.transition === 'fixed' ? TITLES.improved : null;
}

// The paired tests in one line: McNemar on pass/fail and the pass rate delta's interval.
function statisticsLine(c: ComparisonJson): string | null {
  const statistics = c.statistics;
  if (!statistics) return null;
  const { worse, better, p_value } = statistics.mcnemar;
  const delta = statistics.pass_rate_delta;
  const interval = delta
    ? `; pass rate delta ${signed(delta.delta)} [95% ${signed(delta.interval.low)}, ${signed(delta.interval.high)}]`
    : '';
  return `paired over ${statistics.paired_cases} cases: ${worse} worse, ${better} better, exact McNemar ${formatP(p_value)}${interval}`;
}

/**
 * The comparison as the gate prints it: regressions first, then fixes, then flaky cases (flipped across repeats in
 * either run), the counts of every transition and the paired tests; `detailed` adds each regressed case's trajectory
 * diff and the efficiency figures (informational: a run line, and a line per case whose figures moved).
 */
export function renderComparison(c: ComparisonJson, detailed = false): string {
  const { pass_rate: rate } = c.summary;
  const lines = [
    `compared with baseline run ${c.baseline_run_id}: pass rate ${score(rate.baseline)} → ${score(rate.run)} (${signed(rate.delta)})`,
  ];
  for (const title of Object.values(TITLES)) {
    const cases = c.cases.filter((k) => titleOf(k) === title);
    for (const k of cases) {
      lines.push(`${title} ${caseChange(k)}`);
      if (detailed && k.trajectory_diff !== undefined) lines.push(...trajectoryDiffLines(k.trajectory_diff));
    }
  }
  lines.push(TRANSITIONS.map((key) => `${c.summary[key]} ${key.replace('_', ' ')}`).join(', '));
  const statistics = statisticsLine(c);
  if (statistics) lines.push(statistics);
  if (detailed) lines.push(...efficiencyLines(c));
  return lines.join('\n');
}
