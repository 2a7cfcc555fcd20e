import { isUuid } from '../db/column-values';
import { LIMITS } from '../domain/limits';
import { distinctTags, parseBaselineRef, runTagSchema, type BaselineRef } from '../domain/eval/run-tags';
import { DEFAULT_ALPHA, REGRESSION_MODES, type RegressionMode } from '../domain/eval/comparison-statistics';

/** Longest `--timeout`: a week covers the largest run on the slowest judge. */
export const MAX_TIMEOUT_SECONDS = 7 * 24 * 3600;

/** `--baseline`: a run id, the newest completed run before this one, or the newest completed run carrying a tag. */
export type Baseline = BaselineRef;

/** `--min-pass-rate`: a number from 0 to 1. */
export function parseMinPassRate(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new Error('--min-pass-rate must be a number from 0 to 1');
  return n;
}

/** `--timeout`: whole seconds from 1 to a week, or none. */
export function parseTimeout(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > MAX_TIMEOUT_SECONDS)
    throw new Error(`--timeout must be whole seconds from 1 to ${MAX_TIMEOUT_SECONDS}`);
  return n;
}

/** `--tag` (repeatable): at most `tagsPerRun` distinct tags, each as the trigger API takes it; duplicates dropped. */
export function parseTags(values: string[] | undefined): string[] {
  const tags = distinctTags(values ?? []);
  for (const tag of tags) {
    const parsed = runTagSchema.safeParse(tag);
    if (!parsed.success) throw new Error(`--tag "${tag}": ${parsed.error.issues[0].message}`);
  }
  if (tags.length > LIMITS.tagsPerRun) throw new Error(`--tag may be given at most ${LIMITS.tagsPerRun} times`);
  return tags;
}

/** `--baseline <run id | last-completed | tag:<name>>`. */
export function parseBaseline(value: string | undefined): Baseline | null {
  if (value === undefined) return null;
  const ref = parseBaselineRef(value);
  if ('error' in ref) throw new Error(`--baseline ${value}: ${ref.error}`);
  if (ref.kind === 'run' && !isUuid(ref.id))
    throw new Error('--baseline must be a run id, last-completed or tag:<name>');
  return ref.kind === 'run' ? { kind: 'run', id: ref.id.toLowerCase() } : ref;
}

/** The `baseline` query value of the compare API. */
export function baselineQuery(baseline: Baseline): string {
  if (baseline.kind === 'run') return baseline.id;
  return baseline.kind === 'tag' ? `tag:${baseline.tag}` : 'last-completed';
}

// A whole number from 1 to `max`, else the flag's error.
function wholeInRange(flag: string, value: string, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > max)
    throw new Error(`${flag} must be a whole number from 1 to ${max}`);
  return n;
}

/** `--repeats N`: times each case is scored, 1 to `repeatsPerRun`; null when absent (the API's default, 1). */
export function parseRepeats(value: string | undefined): number | null {
  return value === undefined ? null : wholeInRange('--repeats', value, LIMITS.repeatsPerRun);
}

/** `--min-repeat-pass K`: repeats a case must pass in, 1 to `--repeats`; null when absent (all of them). */
export function parseMinRepeatPass(value: string | undefined, repeats: number | null): number | null {
  return value === undefined ? null : wholeInRange('--min-repeat-pass', value, repeats ?? 1);
}

/** What `--fail-on-regression [mode]` and `--alpha` ask of the gate; null without `--fail-on-regression`. */
export interface RegressionGate {
  mode: RegressionMode;
  alpha: number;
}

/**
 * `--fail-on-regression [any|significant]` (bare: `any`, the gate as it always was) and `--alpha p` (above 0 and below
 * 1, default 0.05; only with `significant`, the one mode it changes).
 */
export function parseRegressionGate(
  mode: boolean | string | undefined,
  alpha: string | undefined,
): RegressionGate | null {
  if (alpha !== undefined && mode !== 'significant') throw new Error('--alpha needs --fail-on-regression significant');
  if (mode === undefined || mode === false) return null;
  const chosen = mode === true ? 'any' : mode;
  if (!(REGRESSION_MODES as readonly string[]).includes(chosen))
    throw new Error(`--fail-on-regression must be ${REGRESSION_MODES.join(' or ')}`);
  const level = alpha === undefined ? DEFAULT_ALPHA : Number(alpha);
  if (alpha?.trim() === '' || !Number.isFinite(level) || level <= 0 || level >= 1)
    throw new Error('--alpha must be a number above 0 and below 1');
  return { mode: chosen as RegressionMode, alpha: level };
}

/** The compare API's query for a baseline and the gate's regression mode. */
export function compareQuery(baseline: Baseline, gate: RegressionGate | null): string {
  const query = `baseline=${encodeURIComponent(baselineQuery(baseline))}`;
  return gate ? `${query}&fail_on_regression=${gate.mode}&alpha=${gate.alpha}` : query;
}
