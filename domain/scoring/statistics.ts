import { LIMITS } from '../limits';

/** A two-sided 95% interval: `low` ≤ the estimate ≤ `high`. */
export interface Interval {
  low: number;
  high: number;
}

/** The 97.5th percentile of the standard normal: a two-sided 95% interval spans ±Z95 standard errors. */
export const Z95 = 1.959963984540054;

/** A 32-bit seed from text (FNV-1a), so the same run id always seeds the same resamples. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A seeded PRNG (mulberry32): uniform numbers in [0, 1), the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The Wilson score interval of a rate of `successes` in `n` trials at 95%: centre (p + z²/2n) ÷ (1 + z²/n), half-width
 * z·√(p(1−p)/n + z²/4n²) ÷ (1 + z²/n). Unlike p ± z·√(p(1−p)/n) it stays inside [0, 1] and is not empty at 0/n or n/n.
 * Null when there are no trials.
 */
export function wilsonInterval(successes: number, n: number): Interval | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = Z95 * Z95;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0/n and n/n the bound is exactly 0 or 1; rounding would leave it a hair inside.
  return {
    low: successes <= 0 ? 0 : Math.max(0, centre - half),
    high: successes >= n ? 1 : Math.min(1, centre + half),
  };
}

/** The value below which `fraction` of the sorted values lie (linear interpolation between neighbours). */
export function percentile(sorted: readonly number[], fraction: number): number {
  const position = (sorted.length - 1) * fraction;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/**
 * Resamples of a bootstrap over `n` values: `bootstrapResamples`, fewer when that would draw more than
 * `bootstrapDraws` values (a 10,000-case run gets 200), so one interval costs at most that many draws.
 */
export const resamplesFor = (n: number): number =>
  Math.max(1, Math.min(LIMITS.bootstrapResamples, Math.floor(LIMITS.bootstrapDraws / Math.max(1, n))));

/** The sorted means of bootstrap resamples of `values` (each drawn with replacement, as many as `values`). */
export function bootstrapMeans(values: readonly number[], seed: number): number[] {
  const resamples = resamplesFor(values.length);
  const random = seededRandom(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)];
    means.push(sum / values.length);
  }
  return means.sort((a, b) => a - b);
}

/**
 * The 95% bootstrap percentile interval of the mean of `values`: the 2.5th and 97.5th percentiles of the means of
 * `resamplesFor(values.length)` resamples drawn with a PRNG seeded by `seed`. Null without values.
 */
export function bootstrapMeanInterval(values: readonly number[], seed: number): Interval | null {
  if (values.length === 0) return null;
  const means = bootstrapMeans(values, seed);
  return { low: percentile(means, 0.025), high: percentile(means, 0.975) };
}

/**
 * pass@k of a case scored `n` times that passed `c` times: the chance that at least one of k repeats drawn without
 * replacement passed, the unbiased estimator 1 − C(n−c, k) ÷ C(n, k). Null when k is not between 1 and n.
 */
export function passAtK(n: number, c: number, k: number): number | null {
  if (k < 1 || k > n) return null;
  return 1 - chooseRatio(n - c, n, k);
}

/**
 * pass^k of a case scored `n` times that passed `c` times (tau-bench): the chance that all of k repeats drawn without
 * replacement passed, C(c, k) ÷ C(n, k). Null when k is not between 1 and n.
 */
export function passHatK(n: number, c: number, k: number): number | null {
  if (k < 1 || k > n) return null;
  return chooseRatio(c, n, k);
}

// C(m, k) ÷ C(n, k) as the product of (m − i) ÷ (n − i) over i < k, which neither overflows nor loses precision.
function chooseRatio(m: number, n: number, k: number): number {
  if (m < k) return 0;
  let ratio = 1;
  for (let i = 0; i < k; i++) ratio *= (m - i) / (n - i);
  return ratio;
}
