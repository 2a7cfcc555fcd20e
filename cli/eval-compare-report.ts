import { LIMITS } from '../domain/limits';
import { ApiError, type ApiClient } from './api-client';
import { baselineQuery, type Baseline } from './eval-gate-options';
import { TRANSITIONS } from '../domain/eval/run-comparison';
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
): Promise<ComparisonJson | null> {
  const query = `${runPath}/compare?baseline=${enc(baselineQuery(baseline))}&limit=${LIMITS.pageMax}`;
  let first: ComparisonJson | null = null;
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
  return { run_id: first.run_id, baseline_run_id: first.baseline_run_id, summary: first.summary, cases };
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

/** The comparison as the gate prints it: regressions first, then fixes, then the counts of every transition. */
export function renderComparison(c: ComparisonJson): string {
  const { pass_rate: rate } = c.summary;
  const lines = [
    `compared with baseline run ${c.baseline_run_id}: pass rate ${score(rate.baseline)} → ${score(rate.run)} (${signed(rate.delta)})`,
  ];
  for (const [transition, title] of [
    ['regressed', 'REGRESSED'],
    ['fixed', 'FIXED'],
  ] as const) {
    const cases = c.cases.filter((k) => k.transition === transition);
    lines.push(...cases.map((k) => `${title} ${caseChange(k)}`));
  }
  lines.push(TRANSITIONS.map((key) => `${c.summary[key]} ${key.replace('_', ' ')}`).join(', '));
  return lines.join('\n');
}
