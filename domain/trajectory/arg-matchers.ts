import { compileUserPattern, userPatternProblem } from '../guardrails/user-patterns';
import { jsonEqual } from '../json/json-equal';

/** How an expected call's `tool_args` are compared with the actual call's (the tool name must always be equal). */
export const ARGS_MATCH_MODES = ['exact', 'subset', 'ignore'] as const;
export type ArgsMatch = (typeof ARGS_MATCH_MODES)[number];

/** The keys that make a one-key object in expected `tool_args` a matcher rather than a literal value. */
export const MATCHER_KEYS = ['$regex', '$any', '$number'] as const;
export type MatcherKey = (typeof MATCHER_KEYS)[number];

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The matcher an expected value is (`{"$regex": …}`, `{"$any": true}`, `{"$number": {…}}`), or undefined. */
export function matcherKeyOf(value: unknown): MatcherKey | undefined {
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && (MATCHER_KEYS as readonly string[]).includes(keys[0])
    ? (keys[0] as MatcherKey)
    : undefined;
}

/** Whether a value holds a matcher anywhere (objects and arrays are walked). */
export function containsMatcher(value: unknown): boolean {
  if (matcherKeyOf(value)) return true;
  if (Array.isArray(value)) return value.some(containsMatcher);
  return isObject(value) && Object.values(value).some(containsMatcher);
}

const isBound = (value: unknown): value is number | undefined => value === undefined || typeof value === 'number';

// A stored matcher that validation would refuse (a promoted call that really held `{"$regex": "(("}`) accepts nothing
// by its rule, so scoring never fails on it; it still matches an equal value literally.
function matcherAccepts(key: MatcherKey, spec: unknown, actual: unknown): boolean {
  if (key === '$any') return spec === true && actual !== undefined;
  if (key === '$regex')
    return (
      typeof spec === 'string' &&
      typeof actual === 'string' &&
      userPatternProblem(spec) === undefined &&
      compileUserPattern(spec, false).test(actual)
    );
  if (!isObject(spec) || !isBound(spec.min) || !isBound(spec.max) || typeof actual !== 'number') return false;
  return (spec.min === undefined || actual >= spec.min) && (spec.max === undefined || actual <= spec.max);
}

const definedKeys = (record: JsonObject): string[] => Object.keys(record).filter((key) => record[key] !== undefined);

/**
 * Whether an actual value satisfies an expected one: a matcher applies its rule (and also accepts a value equal to
 * itself, so a promoted call holding such an object still matches its own conversation); numbers compare by value;
 * arrays item by item in order; objects key by key, whatever the key order, with the same keys on both sides.
 */
export function valueMatches(expected: unknown, actual: unknown): boolean {
  const matcher = matcherKeyOf(expected);
  if (matcher) {
    const spec = (expected as JsonObject)[matcher];
    return matcherAccepts(matcher, spec, actual) || jsonEqual(expected, actual);
  }
  return structureMatches(expected, actual);
}

function structureMatches(expected: unknown, actual: unknown): boolean {
  if (expected === actual) return true;
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => valueMatches(e, actual[i]))
    );
  if (!isObject(expected) || !isObject(actual)) return false;
  return keysMatch(expected, actual, 'exact');
}

function keysMatch(expected: JsonObject, actual: JsonObject, mode: 'exact' | 'subset'): boolean {
  const keys = definedKeys(expected);
  if (mode === 'exact' && definedKeys(actual).length !== keys.length) return false;
  return keys.every((key) => Object.hasOwn(actual, key) && valueMatches(expected[key], actual[key]));
}

/** Whether actual arguments satisfy the expected ones under `mode` (`subset` lets the actual call carry more keys). */
export function argsMatch(expected: JsonObject, actual: JsonObject, mode: ArgsMatch = 'exact'): boolean {
  if (mode === 'ignore') return true;
  return keysMatch(expected ?? {}, actual ?? {}, mode);
}
