import { TRANSITIONS } from '../domain/eval/run-comparison';
import { renderDetails } from './eval-report';
import type { CaseResultJson, ComparisonJson, EvalRunJson } from './eval-run.types';
import { firstFailure, turnLines } from './eval-turns-report';

const xml = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

const property = (name: string, value: string | number): string =>
  `<property name="${xml(name)}" value="${xml(String(value))}"/>`;

// The verdict counts (regressed, improved, flaky told apart), McNemar's p-value and the gate's regression verdict.
function statisticsProperties(comparison: ComparisonJson): string[] {
  const { verdicts, statistics, regression } = comparison;
  if (!verdicts || !statistics || !regression) return [];
  return [
    ...(['regressed', 'improved', 'flaky'] as const).map((key) => property(`verdict_${key}`, verdicts[key])),
    property('mcnemar_p_value', statistics.mcnemar.p_value),
    property('regression_mode', regression.mode),
    property('regression_significant', String(regression.significant)),
  ];
}

// With a baseline: the suite carries the baseline run and the transition counts, each case its transition.
function comparisonProperties(comparison: ComparisonJson | null): { suite: string[]; byCase: Map<string, string> } {
  if (!comparison) return { suite: [], byCase: new Map() };
  const counts = TRANSITIONS.map((key) => property(key, comparison.summary[key]));
  const suite = ['    <properties>', `      ${property('baseline_run_id', comparison.baseline_run_id)}`];
  suite.push(...[...counts, ...statisticsProperties(comparison)].map((p) => `      ${p}`), '    </properties>');
  const byCase = new Map(
    comparison.cases.map((c) => {
      const verdict = c.verdict ? property('verdict', c.verdict) : '';
      return [c.case_id, `      <properties>${property('transition', c.transition)}${verdict}</properties>`];
    }),
  );
  return { suite, byCase };
}

// A case that did not pass: its error, its skip reason, or its failure (a multi-turn one names the turn that failed first).
function outcome(r: CaseResultJson): string | null {
  if (r.status === 'passed') return null;
  if (r.status === 'skipped') return `      <skipped message="${xml(r.skip_reason ?? 'skipped')}"/>`;
  const tag = r.status === 'error' ? 'error' : 'failure';
  const message = r.status === 'error' ? (r.error ?? 'error') : (firstFailure(r) ?? 'criteria below minimum');
  return `      <${tag} message="${xml(message)}">${xml(renderDetails([r]))}</${tag}>`;
}

// A multi-turn case's per-turn scores, one line a turn (nothing for a one-turn case).
function systemOut(r: CaseResultJson): string | null {
  const lines = turnLines(r);
  return lines.length ? `      <system-out>${xml(lines.join('\n'))}</system-out>` : null;
}

/**
 * JUnit XML: one testsuite for the run, one testcase per case (failures and errors with their detail, skipped cases
 * with their reason, a multi-turn case's per-turn scores as its system-out); with a comparison, the baseline,
 * transition and verdict counts and McNemar's p-value as suite properties, each case's transition and verdict
 * (regressed, improved or flaky) as its properties.
 */
export function renderJunit(
  suite: string,
  run: EvalRunJson,
  results: CaseResultJson[],
  comparison: ComparisonJson | null = null,
): string {
  const failures = results.filter((r) => r.status === 'failed').length;
  const errors = results.filter((r) => r.status === 'error').length;
  const skippedCount = results.filter((r) => r.status === 'skipped').length;
  const skipped = skippedCount ? ` skipped="${skippedCount}"` : '';
  const props = comparisonProperties(comparison);
  const cases = results.map((r) => {
    const open = `    <testcase name="${xml(r.case_name)}" classname="${xml(suite)}">`;
    const body = [props.byCase.get(r.case_id), outcome(r), systemOut(r)].filter((l): l is string => !!l);
    return body.length ? [open, ...body, '    </testcase>'].join('\n') : `${open}</testcase>`;
  });
  const counts = `tests="${results.length}" failures="${failures}" errors="${errors}"${skipped}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="assay" ${counts}>`,
    `  <testsuite name="${xml(suite)}" id="${xml(run.id)}" ${counts}>`,
    ...props.suite,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
