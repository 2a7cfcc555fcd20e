import type { EvalRunJson } from './eval-run.types';

/** `--max-unscored`: how many cases may leave a criterion unscored, as a count (`3`) or a share of the cases (`5%`). */
export type MaxUnscored = { cases: number } | { percent: number };

/** `--max-unscored <n|pct>`: a whole number of cases, or a percentage from 0 to 100 of the cases scored. */
export function parseMaxUnscored(value: string | undefined): MaxUnscored | null {
  if (value === undefined) return null;
  const text = value.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (percent && Number(percent[1]) <= 100) return { percent: Number(percent[1]) };
  if (/^\d+$/.test(text)) return { cases: Number(text) };
  throw new Error('--max-unscored must be a whole number of cases or a percentage from 0% to 100%');
}

type Summary = NonNullable<EvalRunJson['summary']>;

// Cases the run scored (skipped ones aside): what a percentage is of.
const scoredCases = (summary: Summary): number => (summary.counts?.total ?? 0) - (summary.counts?.skipped ?? 0);

/** The cases `--max-unscored` allows in this run. */
function allowed(bound: MaxUnscored, summary: Summary): number {
  return 'cases' in bound ? bound.cases : Math.floor((bound.percent / 100) * scoredCases(summary));
}

/** The report line of a run with unscored criteria (empty when it had none): cases, and per criterion. */
export function renderUnscored(run: EvalRunJson): string {
  const unscored = run.summary?.unscored;
  if (!unscored) return '';
  const perCriterion = Object.entries(unscored.criteria)
    .map(([criterion, cases]) => `${criterion} ${cases}`)
    .join(', ');
  return `unscored: ${unscored.cases} cases (the judge gave no usable verdict: ${perCriterion})\n`;
}

/** Why the gate fails on unscored cases, or null: more cases left a criterion unscored than `--max-unscored` allows. */
export function unscoredReason(run: EvalRunJson, bound: MaxUnscored | null): string | null {
  const summary = run.summary;
  if (!bound || !summary) return null;
  const cases = summary.unscored?.cases ?? 0;
  const limit = allowed(bound, summary);
  if (cases <= limit) return null;
  const given = 'cases' in bound ? `${bound.cases}` : `${bound.percent}% = ${limit}`;
  return `FAILED: ${cases} cases left a criterion unscored; --max-unscored allows ${given}`;
}
