import { isFlaky } from '../scoring/case-repeats';
import { mcnemarExact, pairedBootstrap, type PairedDelta } from '../scoring/statistics-paired';
import { seedOf } from '../scoring/statistics';
import type { TrajectoryDiff } from './trajectory-diff';
import type { CaseComparison, ComparedResult, RunComparison } from './run-comparison';

/** How the gate reads regressions: `any` regressed case fails it; `significant` only a significant McNemar test. */
export const REGRESSION_MODES = ['any', 'significant'] as const;
export type RegressionMode = (typeof REGRESSION_MODES)[number];

/** The significance level `significant` tests at unless told otherwise. */
export const DEFAULT_ALPHA = 0.05;

/** The paired tests over the cases both runs scored (neither skipped, both with a result). */
export interface ComparisonStatistics {
  paired_cases: number;
  /** Exact McNemar on pass/fail: `worse` passed in the baseline only, `better` in the run only. */
  mcnemar: { worse: number; better: number; p_value: number };
  /** The paired bootstrap of the pass rate (passed = 1): run − baseline over the paired cases, with its interval. */
  pass_rate_delta: PairedDelta | null;
  /** The paired bootstrap of each criterion's mean over the cases where it applied in both runs (null: none). */
  criteria: Record<string, PairedDelta | null>;
}

/** The gate's verdict on regressions: `failed` under `any` when a case regressed, under `significant` when
 * McNemar's p-value is below `alpha` and more cases got worse than better. */
export interface RegressionVerdict {
  mode: RegressionMode;
  alpha: number;
  regressed: number;
  significant: boolean;
  failed: boolean;
}

const pairsOf = (
  run: readonly ComparedResult[],
  baseline: readonly ComparedResult[],
): Array<[ComparedResult, ComparedResult]> => {
  const baselineById = new Map(baseline.map((result) => [result.case_id, result]));
  return run.flatMap((result) => {
    const other = baselineById.get(result.case_id);
    return other ? [[result, other] as [ComparedResult, ComparedResult]] : [];
  });
};

/**
 * The paired tests of a run against its baseline (skipped results left out), each bootstrap seeded from `seed` and the
 * quantity, so the same two runs always give the same intervals and p-values.
 */
export function comparisonStatistics(
  runResults: readonly ComparedResult[],
  baselineResults: readonly ComparedResult[],
  seed: string,
): ComparisonStatistics {
  const scored = (results: readonly ComparedResult[]): ComparedResult[] =>
    results.filter((result) => result.status !== 'skipped');
  const pairs = pairsOf(scored(runResults), scored(baselineResults));
  const passed = (result: ComparedResult): number => (result.status === 'passed' ? 1 : 0);
  const worse = pairs.filter(([run, base]) => passed(base) > passed(run)).length;
  const better = pairs.filter(([run, base]) => passed(run) > passed(base)).length;
  const keys = [...new Set(pairs.flatMap(([run]) => Object.keys(run.scores)))].sort();
  const criteria = Object.fromEntries(
    keys.map((key) => {
      const scoredBoth = pairs.flatMap(([run, base]) => {
        const [a, b] = [run.scores[key], base.scores[key]];
        return a === null || a === undefined || b === null || b === undefined ? [] : [{ run: a, baseline: b }];
      });
      return [key, pairedBootstrap(scoredBoth, seedOf(`${seed}:${key}`))];
    }),
  );
  return {
    paired_cases: pairs.length,
    mcnemar: { worse, better, p_value: mcnemarExact(worse, better) },
    pass_rate_delta: pairedBootstrap(
      pairs.map(([run, base]) => ({ run: passed(run), baseline: passed(base) })),
      seedOf(`${seed}:pass_rate`),
    ),
    criteria,
  };
}

/** The regression verdict for `regressed` cases and the paired statistics, under `mode` at `alpha`. */
export function regressionVerdict(
  statistics: ComparisonStatistics,
  regressed: number,
  mode: RegressionMode,
  alpha: number,
): RegressionVerdict {
  const { worse, better, p_value } = statistics.mcnemar;
  const significant = worse > better && p_value < alpha;
  return { mode, alpha, regressed, significant, failed: mode === 'any' ? regressed > 0 : significant };
}

/** What the report tells apart for a case: it regressed, improved, or flipped across repeats (flaky wins). */
export type CaseVerdict = 'regressed' | 'improved' | 'flaky';

/** A case of a comparison with its verdict (null: nothing to tell) and whether its repeats flipped in the run. */
export type JudgedCaseComparison = CaseComparison & {
  flaky: boolean;
  verdict: CaseVerdict | null;
  /** Regressed cases of the compare API: the baseline's calls aligned against the run's (see `withTrajectoryDiffs`). */
  trajectory_diff?: TrajectoryDiff | null;
};

/** A comparison with its paired statistics, the verdict counts and the gate's regression verdict. */
export interface JudgedComparison {
  summary: RunComparison['summary'];
  verdicts: Record<CaseVerdict, number>;
  statistics: ComparisonStatistics;
  regression: RegressionVerdict;
  cases: JudgedCaseComparison[];
}

/** How to judge a comparison: the bootstrap seed (the two run ids), the gate's mode and its significance level. */
export interface JudgeOptions {
  seed: string;
  mode: RegressionMode;
  alpha: number;
}

/**
 * Adds to `compareRuns`' comparison each case's verdict (`flaky` when its repeats flipped in the run, so its outcome
 * there is not settled (a baseline that flipped while the run fails every repeat is a regression), else
 * `regressed` / `improved` for a regressed / fixed case), their counts, the paired statistics and the regression
 * verdict (under `any`, every regressed case counts, flaky or not: the gate as it always was).
 */
export function judgeComparison(
  comparison: RunComparison,
  runResults: readonly ComparedResult[],
  baselineResults: readonly ComparedResult[],
  options: JudgeOptions,
): JudgedComparison {
  const runById = new Map(runResults.map((result) => [result.case_id, result]));
  const cases = comparison.cases.map((entry): JudgedCaseComparison => {
    const flaky = isFlaky(runById.get(entry.case_id)?.flip_rate);
    const moved: CaseVerdict | null =
      entry.transition === 'regressed' ? 'regressed' : entry.transition === 'fixed' ? 'improved' : null;
    return { ...entry, flaky, verdict: flaky ? 'flaky' : moved };
  });
  const verdicts: Record<CaseVerdict, number> = { regressed: 0, improved: 0, flaky: 0 };
  for (const { verdict } of cases) if (verdict) verdicts[verdict]++;
  const statistics = comparisonStatistics(runResults, baselineResults, options.seed);
  const regression = regressionVerdict(statistics, comparison.summary.regressed, options.mode, options.alpha);
  return { summary: comparison.summary, verdicts, statistics, regression, cases };
}
