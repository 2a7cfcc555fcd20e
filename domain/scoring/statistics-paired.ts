import { bootstrapMeans, percentile, type Interval } from './statistics';

/**
 * The exact McNemar test: of the cases both runs scored, `worse` passed in the baseline only and `better` in the run
 * only. Under no change each discordant case is equally likely either way, so the two-sided p-value is
 * 2 · P(X ≤ min(worse, better)) for X ~ Binomial(worse + better, ½), at most 1 (1 without discordant cases).
 */
export function mcnemarExact(worse: number, better: number): number {
  const n = worse + better;
  if (n === 0) return 1;
  // Summed in logs: 2^−n underflows past n ≈ 1,074.
  let logPmf = -n * Math.LN2;
  let tail = 0;
  for (let i = 0; i <= Math.min(worse, better); i++) {
    tail += Math.exp(logPmf);
    logPmf += Math.log(n - i) - Math.log(i + 1);
  }
  return Math.min(1, 2 * tail);
}

/** The mean difference of paired scores (run − baseline), its 95% interval and a two-sided p-value. */
export interface PairedDelta {
  delta: number;
  interval: Interval;
  p_value: number;
  /** Cases both runs scored. */
  pairs: number;
}

/**
 * The paired bootstrap of a mean difference: `resamplesFor(pairs)` resamples of the pairs (with replacement, the
 * PRNG seeded by `seed`); the interval is the 2.5th and 97.5th percentiles of the resampled mean differences, and the
 * p-value 2 · min(share ≤ 0, share ≥ 0), at most 1 (it is below α exactly when the 1 − α interval leaves out 0).
 * Null without pairs.
 */
export function pairedBootstrap(
  pairs: ReadonlyArray<{ run: number; baseline: number }>,
  seed: number,
): PairedDelta | null {
  if (pairs.length === 0) return null;
  const differences = pairs.map((pair) => pair.run - pair.baseline);
  const delta = differences.reduce((sum, d) => sum + d, 0) / differences.length;
  const means = bootstrapMeans(differences, seed);
  const atMost = means.filter((mean) => mean <= 0).length / means.length;
  const atLeast = means.filter((mean) => mean >= 0).length / means.length;
  return {
    delta,
    interval: { low: percentile(means, 0.025), high: percentile(means, 0.975) },
    p_value: Math.min(1, 2 * Math.min(atMost, atLeast)),
    pairs: pairs.length,
  };
}
