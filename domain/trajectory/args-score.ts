import { valueMatches, type ArgsMatch } from './arg-matchers';

type JsonObject = Record<string, unknown>;
const EMPTY: JsonObject = Object.freeze({});

/**
 * The fraction of an expected call's arguments an actual call got right (docs/evaluation.md "Partial credit"): each
 * top-level key of the expected args counts once and matches when the actual call has it and its value satisfies the
 * expected one (matchers included; a nested value counts whole). Under `exact` each key the actual call adds counts
 * as one more unmatched key, under `subset` it costs nothing, and `ignore` scores 1. Nothing expected and nothing
 * extra scores 1. Allocates nothing: scoring calls it for every missing call of a long trajectory.
 */
export function argsScore(
  expected: JsonObject | undefined,
  actual: JsonObject | undefined,
  mode: ArgsMatch = 'exact',
): number {
  if (mode === 'ignore') return 1;
  const want = expected ?? EMPTY;
  const got = actual ?? EMPTY;
  let of = 0;
  let matched = 0;
  for (const key in want) {
    if (!Object.hasOwn(want, key) || want[key] === undefined) continue;
    of++;
    if (Object.hasOwn(got, key) && valueMatches(want[key], got[key])) matched++;
  }
  if (mode === 'exact')
    for (const key in got)
      if (Object.hasOwn(got, key) && got[key] !== undefined && (!Object.hasOwn(want, key) || want[key] === undefined))
        of++;
  return of === 0 ? 1 : matched / of;
}
