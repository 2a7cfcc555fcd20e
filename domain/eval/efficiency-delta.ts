import type { Efficiency } from '../scoring/efficiency';
import type { ComparedResult, Delta } from './run-comparison';

/** The case figures of `Efficiency` a comparison sets side by side (turns are left out). */
export const EFFICIENCY_FIGURES = ['tool_calls', 'model_calls', 'total_tokens', 'latency_ms'] as const;
export type EfficiencyFigure = (typeof EFFICIENCY_FIGURES)[number];

/** Run − baseline for each figure, null where either side does not record it. */
export type EfficiencyDelta = Record<EfficiencyFigure, number | null>;

/** The run's efficiency over the cases both runs scored: each figure's mean in both runs and run − baseline. */
export type EfficiencyComparison = { cases: number } & Record<EfficiencyFigure, Delta>;

const figureOf = (efficiency: Efficiency, figure: EfficiencyFigure): number | null => efficiency[figure] ?? null;

/** A case's efficiency delta (informational only); null when either run has no figures for the case. */
export function efficiencyDelta(
  run: Efficiency | null | undefined,
  baseline: Efficiency | null | undefined,
): EfficiencyDelta | null {
  if (!run || !baseline) return null;
  const entries = EFFICIENCY_FIGURES.map((figure) => {
    const [now, before] = [figureOf(run, figure), figureOf(baseline, figure)];
    return [figure, now === null || before === null ? null : now - before];
  });
  return Object.fromEntries(entries) as EfficiencyDelta;
}

const scored = (results: readonly ComparedResult[]): Map<string, Efficiency> =>
  new Map(
    results
      .filter((result) => result.status !== 'skipped' && result.efficiency)
      .map((result) => [result.case_id, result.efficiency as Efficiency]),
  );

/**
 * Each figure's mean in both runs and the delta of the means, over the cases both runs scored with figures (`cases`);
 * a figure is averaged over the cases where both runs record it (null where none does), so the delta of the means is
 * also the mean of the case deltas.
 */
export function efficiencyComparison(
  runResults: readonly ComparedResult[],
  baselineResults: readonly ComparedResult[],
): EfficiencyComparison {
  const baseline = scored(baselineResults);
  const pairs = [...scored(runResults)].flatMap(([caseId, run]) => {
    const before = baseline.get(caseId);
    return before ? [[run, before] as const] : [];
  });
  const means = EFFICIENCY_FIGURES.map((figure): [EfficiencyFigure, Delta] => {
    const known = pairs
      .map(([run, before]) => [figureOf(run, figure), figureOf(before, figure)])
      .filter((pair): pair is [number, number] => pair[0] !== null && pair[1] !== null);
    if (known.length === 0) return [figure, { run: null, baseline: null, delta: null }];
    const [run, before] = [0, 1].map((side) => known.reduce((sum, pair) => sum + pair[side], 0) / known.length);
    return [figure, { run, baseline: before, delta: run - before }];
  });
  return { cases: pairs.length, ...(Object.fromEntries(means) as Record<EfficiencyFigure, Delta>) };
}

/** Adds to each case of a comparison page its `efficiency_delta` (null unless both runs have figures for it). */
export function withEfficiencyDeltas<T extends { case_id: string }>(
  cases: readonly T[],
  runResults: readonly ComparedResult[],
  baselineResults: readonly ComparedResult[],
): Array<T & { efficiency_delta: EfficiencyDelta | null }> {
  const [run, baseline] = [scored(runResults), scored(baselineResults)];
  return cases.map((entry) => ({
    ...entry,
    efficiency_delta: efficiencyDelta(run.get(entry.case_id), baseline.get(entry.case_id)),
  }));
}
