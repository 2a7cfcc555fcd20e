import Table from 'cli-table3';
import {
  CRITERIA_ORDER,
  type CaseResultJson,
  type CriterionJson,
  type EvalRunJson,
  type RunCostJson,
} from './eval-run.types';
import { failedTurnsOf, firstFailure, reasonOf, turnLines, turnsCell, turnsOf } from './eval-turns-report';

const fmt = (n: number): string => n.toFixed(2);

function cell(criterion: CriterionJson | undefined): string {
  if (!criterion) return '-';
  if (!criterion.applicable) return 'n/a';
  const min = criterion.min_score === null ? '' : ` (min ${fmt(criterion.min_score)})`;
  return `${fmt(criterion.score)} ${criterion.passed ? 'pass' : 'FAIL'}${criterion.passed ? '' : min}`;
}

/**
 * The summary table: one row per case with status and one column per criterion; when a case has turns, a `turns`
 * column (turns passed, and the turn that failed first).
 */
export function renderTable(results: CaseResultJson[]): string {
  const columns = CRITERIA_ORDER.filter((key) => results.some((r) => r.criteria[key]));
  const turns = results.some((r) => turnsOf(r)) ? ['turns'] : [];
  const table = new Table({ head: ['case', 'status', ...turns, ...columns], style: { head: [], border: [] } });
  for (const r of results) {
    const turnCell = turns.length ? [turnsCell(r)] : [];
    table.push([r.case_name, r.status.toUpperCase(), ...turnCell, ...columns.map((key) => cell(r.criteria[key]))]);
  }
  return table.toString();
}

/** One line summary of a finished run. */
export function renderSummary(run: EvalRunJson, minPassRate: number): string {
  const s = run.summary;
  if (!s) return `run ${run.id}: ${run.status}`;
  const averages = Object.entries(s.avg_score)
    .map(([k, v]) => `${k}=${v === null ? 'n/a' : fmt(v)}`)
    .join(' ');
  const skipped = s.counts?.skipped ? `, ${s.counts.skipped} skipped` : '';
  const counts = s.counts
    ? ` (${s.counts.passed} passed, ${s.counts.failed} failed, ${s.counts.error} error${skipped})`
    : '';
  const lines = [
    `pass rate ${fmt(s.pass_rate)} (minimum ${fmt(minPassRate)})${counts}`,
    `average scores: ${averages || 'none'}`,
  ];
  if (s.cost) lines.push(renderCost(s.cost));
  lines.push(...renderStatistics(s));
  return lines.join('\n');
}

type RunSummaryJson = NonNullable<EvalRunJson['summary']>;
const span = (interval: { low: number; high: number }): string => `${fmt(interval.low)}–${fmt(interval.high)}`;

/** The 95% intervals (pass rate, each criterion mean that has one) and, with repeats, pass@k and pass^k per k. */
function renderStatistics(s: RunSummaryJson): string[] {
  const lines: string[] = [];
  if (s.pass_rate_interval) {
    const criteria = Object.entries(s.avg_score_interval ?? {}).flatMap(([key, interval]) =>
      interval ? [`${key} ${span(interval)}`] : [],
    );
    lines.push(`95% intervals: pass rate ${span(s.pass_rate_interval)}${criteria.map((c) => `, ${c}`).join('')}`);
  }
  if (s.pass_at_k?.length) {
    const at = s.pass_at_k.map((e) => `pass@${e.k} ${fmt(e.pass_at_k)}`).join(', ');
    const hat = s.pass_at_k.map((e) => `pass^${e.k} ${fmt(e.pass_hat_k)}`).join(', ');
    lines.push(`${at}; ${hat}`);
  }
  return lines;
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
  if (key === 'rubric_based' || key === 'task_success' || key === 'persona_adherence') {
    return ((d.rejected as Array<{ rubric: string; justification: string }>) ?? []).map(
      (r) => `rejected: "${r.rubric}" — ${r.justification}`,
    );
  }
  if (key === 'safety') return [`guardrails fired: ${((d.guardrails as string[]) ?? []).join(', ')}`];
  return [JSON.stringify(d)];
}

// A multi-turn result's criterion: each failed turn's own detail, then the conversation rubrics' verdicts; a criterion
// judged over the whole conversation only (a scenario's task_success) its own detail.
function explainTurns(r: CaseResultJson, key: string, criterion: CriterionJson): string[] {
  if (!Array.isArray((criterion.detail as { turns?: unknown } | null)?.turns)) return explain(key, criterion);
  const lines = failedTurnsOf(r, key).flatMap(({ turn, criterion: c }) => {
    const reason = reasonOf(c.detail);
    return (reason ? [reason] : explain(key, { applicable: true, ...c })).map((l) => `turn ${turn}: ${l}`);
  });
  const conversation = (criterion.detail as { conversation?: { passed: boolean; detail: unknown } } | null)
    ?.conversation;
  if (conversation && !conversation.passed)
    lines.push(...explain(key, { ...criterion, detail: conversation.detail }).map((l) => `conversation: ${l}`));
  return lines;
}

/**
 * `--detailed`: every failed criterion (and every errored or skipped case) with its detail; a failed multi-turn case
 * names the turn that failed first, gives each failed turn's detail and every turn's scores.
 */
export function renderDetails(results: CaseResultJson[]): string {
  const lines: string[] = [];
  for (const r of results) {
    if (r.status === 'error') lines.push(`${r.case_name}: ERROR ${r.error ?? ''}`);
    if (r.status === 'skipped') lines.push(`${r.case_name}: SKIPPED ${r.skip_reason ?? ''}`);
    const multiTurn = turnsOf(r) !== null;
    for (const [key, criterion] of Object.entries(r.criteria)) {
      if (criterion.passed) continue;
      lines.push(`${r.case_name} › ${key}: ${fmt(criterion.score)} < ${fmt(criterion.min_score ?? 1)}`);
      const explained = multiTurn ? explainTurns(r, key, criterion) : explain(key, criterion);
      lines.push(...explained.map((l) => `    ${l}`));
    }
    if (!multiTurn || r.status === 'passed') continue;
    lines.push(`${r.case_name} › ${firstFailure(r) ?? 'no turn failed'}`, ...turnLines(r).map((l) => `    ${l}`));
  }
  return lines.join('\n');
}
