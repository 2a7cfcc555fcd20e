import fs from 'node:fs';
import { formatP, renderComparison } from './eval-compare-report';
import { baselineQuery, type Baseline, type RegressionGate } from './eval-gate-options';
import { renderUnscored, unscoredReason, type MaxUnscored } from './eval-gate-unscored';
import { renderJunit } from './eval-junit-report';
import { renderDetails, renderFlaky, renderJudgeCache, renderSummary, renderTable } from './eval-report';
import type { CaseResultJson, ComparisonJson, EvalRunJson } from './eval-run.types';
import { EXIT } from './exit-codes';

/** A completed run, its results, its comparison with the baseline, and what the gate was asked. */
export interface GateOutcome {
  set: { name: string };
  run: EvalRunJson;
  results: CaseResultJson[];
  comparison: ComparisonJson | null;
  plan: {
    minPassRate: number;
    baseline: Baseline | null;
    regressionGate: RegressionGate | null;
    maxUnscored?: MaxUnscored | null;
  };
  options: { detailed?: boolean; junit?: string; json?: string };
}

/** Why the regressions fail the gate, or null: any regressed case under `any`; under `significant`, a significant McNemar test. */
function regressionReason(comparison: ComparisonJson, gate: RegressionGate): string | null {
  const { regressed } = comparison.summary;
  const since = `since baseline run ${comparison.baseline_run_id}`;
  if (gate.mode === 'any') return regressed > 0 ? `FAILED: ${regressed} cases regressed ${since}` : null;
  const mcnemar = comparison.statistics?.mcnemar;
  if (!comparison.regression?.significant || !mcnemar) return null;
  return (
    `FAILED: a significant regression ${since}: ${mcnemar.worse} cases worse, ${mcnemar.better} better ` +
    `(exact McNemar ${formatP(mcnemar.p_value)}, alpha ${gate.alpha})`
  );
}

/** The verdict lines: why the gate failed, or PASSED. */
function verdict(outcome: GateOutcome): string[] {
  const { run, comparison, plan } = outcome;
  const passRate = run.summary?.pass_rate ?? 0;
  const reasons: string[] = [];
  if (passRate < plan.minPassRate)
    reasons.push(`FAILED: pass rate ${passRate.toFixed(2)} is below ${plan.minPassRate.toFixed(2)}`);
  const regression = comparison && plan.regressionGate ? regressionReason(comparison, plan.regressionGate) : null;
  if (regression) reasons.push(regression);
  const unscored = unscoredReason(run, plan.maxUnscored ?? null);
  if (unscored) reasons.push(unscored);
  return reasons.length ? reasons : ['PASSED'];
}

/**
 * Prints the table, summary, optional details and the comparison (regressions first) to `out`, writes `--junit` and
 * `--json` (`-`: stdout), and returns the exit code: 1 below the minimum pass rate, with `--fail-on-regression`
 * on any regression (`any`) or a significant one (`significant`), or with `--max-unscored` when more cases left a
 * criterion unscored; else 0.
 */
export function writeGateReport(out: NodeJS.WritableStream, outcome: GateOutcome): number {
  const { set, run, results, comparison, plan, options } = outcome;
  out.write(`${renderTable(results)}\n${renderSummary(run, plan.minPassRate)}\n${renderJudgeCache(run)}`);
  out.write(renderUnscored(run));
  const flaky = renderFlaky(run);
  if (flaky) out.write(`${flaky}\n`);
  if (options.detailed) out.write(`\n${renderDetails(results) || 'no failed criteria'}\n`);
  if (plan.baseline) {
    const text = comparison
      ? renderComparison(comparison, options.detailed)
      : `no baseline run found for --baseline ${baselineQuery(plan.baseline)}: regressions not checked`;
    out.write(`\n${text}\n`);
  }
  if (options.junit) fs.writeFileSync(options.junit, renderJunit(set.name, run, results, comparison));
  if (options.json) {
    const json = `${JSON.stringify({ run, results, comparison }, null, 2)}\n`;
    if (options.json === '-') process.stdout.write(json);
    else fs.writeFileSync(options.json, json);
  }
  const lines = verdict(outcome);
  out.write(`${lines.join('\n')}\n`);
  return lines[0] === 'PASSED' ? EXIT.ok : EXIT.gateFailed;
}
