import { TRANSITIONS } from '../domain/eval/run-comparison';
import Table from 'cli-table3';
import {
  CRITERIA_ORDER,
  type CaseResultJson,
  type ComparisonJson,
  type CriterionJson,
  type EvalRunJson,
  type RunCostJson,
} from './eval-run.types';

const fmt = (n: number): string => n.toFixed(2);

function cell(criterion: CriterionJson | undefined): string {
  if (!criterion) return '-';
  if (!criterion.applicable) return 'n/a';
  const min = criterion.min_score === null ? '' : ` (min ${fmt(criterion.min_score)})`;
  return `${fmt(criterion.score)} ${criterion.passed ? 'pass' : 'FAIL'}${criterion.passed ? '' : min}`;
}

/** The summary table: one row per case with status and one column per criterion. */
export function renderTable(results: CaseResultJson[]): string {
  const columns = CRITERIA_ORDER.filter((key) => results.some((r) => r.criteria[key]));
  const table = new Table({ head: ['case', 'status', ...columns], style: { head: [], border: [] } });
  for (const r of results)
    table.push([r.case_name, r.status.toUpperCase(), ...columns.map((key) => cell(r.criteria[key]))]);
  return table.toString();
}

/** One line summary of a finished run. */
export function renderSummary(run: EvalRunJson, minPassRate: number): string {
  const s = run.summary;
  if (!s) return `run ${run.id}: ${run.status}`;
  const averages = Object.entries(s.avg_score)
    .map(([k, v]) => `${k}=${v === null ? 'n/a' : fmt(v)}`)
    .join(' ');
  const counts = s.counts ? ` (${s.counts.passed} passed, ${s.counts.failed} failed, ${s.counts.error} error)` : '';
  const lines = [
    `pass rate ${fmt(s.pass_rate)} (minimum ${fmt(minPassRate)})${counts}`,
    `average scores: ${averages || 'none'}`,
  ];
  if (s.cost) lines.push(renderCost(s.cost));
  return lines.join('\n');
}

const usd = (value: number | null, unknown: string): string => (value === null ? unknown : `$${value.toFixed(6)}`);

/** The cost line: judge, agent (live mode) and total in USD, and the models that have no price. */
function renderCost(cost: RunCostJson): string {
  const unpriced = cost.unpriced_models.length ? ` (no price for ${cost.unpriced_models.join(', ')})` : '';
  const agent = usd(cost.agent_usd, cost.unpriced_models.length ? 'unknown' : 'n/a');
  return `cost: judge ${usd(cost.judge_usd, 'unknown')}, agent ${agent}, total ${usd(cost.total_usd, 'unknown')}${unpriced}`;
}

/** The judge cache line of a finished run (empty for a run summarised before the cache existed). */
export function renderJudgeCache(run: EvalRunJson): string {
  const cache = run.summary?.judge_cache;
  return cache ? `judge cache: ${cache.hits} hits, ${cache.misses} misses\n` : '';
}

/** The flaky cases of a run of several repeats (empty for a run of one): each with its flip rate. */
export function renderFlaky(run: EvalRunJson): string {
  const s = run.summary;
  if (!s?.flaky) return '';
  const head = `repeats ${run.repeats ?? '?'} (a case passes in at least ${run.min_repeat_pass ?? '?'})`;
  if (s.flaky.length === 0) return `${head}: no flaky cases`;
  const listed = s.flaky.map((c) => `  ${c.name}  flip rate ${fmt(c.flip_rate)}`).join('\n');
  const more = (s.flaky_count ?? 0) > s.flaky.length ? `\n  … and ${(s.flaky_count ?? 0) - s.flaky.length} more` : '';
  return `${head}: ${s.flaky_count ?? s.flaky.length} flaky cases\n${listed}${more}`;
}

type Detail = Record<string, unknown>;
const calls = (list: unknown): string =>
  ((list as Array<{ tool_name: string; tool_args: unknown }>) ?? [])
    .map((c) => `${c.tool_name}(${JSON.stringify(c.tool_args)})`)
    .join(', ') || 'none';

function explain(key: string, criterion: CriterionJson): string[] {
  const d = (criterion.detail ?? {}) as Detail;
  if (key === 'tool_trajectory_avg_score') return [`missing: ${calls(d.missing)}`, `extra: ${calls(d.extra)}`];
  if (key === 'rubric_based') {
    return ((d.rejected as Array<{ rubric: string; justification: string }>) ?? []).map(
      (r) => `rejected: "${r.rubric}" — ${r.justification}`,
    );
  }
  if (key === 'safety') return [`guardrails fired: ${((d.guardrails as string[]) ?? []).join(', ')}`];
  return [JSON.stringify(d)];
}

/** `--detailed`: every failed criterion (and every errored case) with its detail. */
export function renderDetails(results: CaseResultJson[]): string {
  const lines: string[] = [];
  for (const r of results) {
    if (r.status === 'error') lines.push(`${r.case_name}: ERROR ${r.error ?? ''}`);
    for (const [key, criterion] of Object.entries(r.criteria)) {
      if (criterion.passed) continue;
      lines.push(`${r.case_name} › ${key}: ${fmt(criterion.score)} < ${fmt(criterion.min_score ?? 1)}`);
      lines.push(...explain(key, criterion).map((l) => `    ${l}`));
    }
  }
  return lines.join('\n');
}

const xml = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

const property = (name: string, value: string | number): string =>
  `<property name="${xml(name)}" value="${xml(String(value))}"/>`;

// With a baseline: the suite carries the baseline run and the transition counts, each case its transition.
function comparisonProperties(comparison: ComparisonJson | null): { suite: string[]; byCase: Map<string, string> } {
  if (!comparison) return { suite: [], byCase: new Map() };
  const counts = TRANSITIONS.map((key) => property(key, comparison.summary[key]));
  const suite = ['    <properties>', `      ${property('baseline_run_id', comparison.baseline_run_id)}`];
  suite.push(...counts.map((p) => `      ${p}`), '    </properties>');
  const byCase = new Map(
    comparison.cases.map((c) => [c.case_id, `      <properties>${property('transition', c.transition)}</properties>`]),
  );
  return { suite, byCase };
}

/**
 * JUnit XML: one testsuite for the run, one testcase per case (failures and errors with their detail); with a
 * comparison, the baseline and transition counts as suite properties and each case's transition as its property.
 */
export function renderJunit(
  suite: string,
  run: EvalRunJson,
  results: CaseResultJson[],
  comparison: ComparisonJson | null = null,
): string {
  const failures = results.filter((r) => r.status === 'failed').length;
  const errors = results.filter((r) => r.status === 'error').length;
  const props = comparisonProperties(comparison);
  const cases = results.map((r) => {
    const open = `    <testcase name="${xml(r.case_name)}" classname="${xml(suite)}">`;
    const transition = props.byCase.get(r.case_id);
    const body = transition ? [transition] : [];
    if (r.status !== 'passed') {
      const tag = r.status === 'error' ? 'error' : 'failure';
      const message = r.status === 'error' ? (r.error ?? 'error') : 'criteria below minimum';
      body.push(`      <${tag} message="${xml(message)}">${xml(renderDetails([r]))}</${tag}>`);
    }
    return body.length ? [open, ...body, '    </testcase>'].join('\n') : `${open}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="assay" tests="${results.length}" failures="${failures}" errors="${errors}">`,
    `  <testsuite name="${xml(suite)}" id="${xml(run.id)}" tests="${results.length}" failures="${failures}" errors="${errors}">`,
    ...props.suite,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
