import { seededRandom } from '../../domain/scoring/statistics';
import type { AdkCall } from './adk-oracle';

// mulberry32, the seeded PRNG the run statistics use: a seed always generates the same pairs.
export { seededRandom };

type Value =
  | { kind: 'number'; spellings: readonly string[] }
  | { kind: 'string'; text: string }
  | { kind: 'literal'; text: 'true' | 'false' | 'null' }
  | { kind: 'array'; items: Value[] }
  | { kind: 'object'; entries: [string, Value][] };

interface Call {
  name: string;
  args: [string, Value][];
}

// Each row spells one number several ways (2, 2.0, 2e0 are equal in both languages). No 0 or 1: Python holds
// `True == 1` and `False == 0`, which JSON does not; no integers beyond 2^53, exact in Python but not in a double.
const NUMBERS = [
  ['2', '2.0', '2e0', '20e-1'],
  ['3', '3.00', '0.3e1'],
  ['-1.5', '-15e-1', '-1.50'],
  ['0.1', '1e-1'],
];
const STRINGS = ['a', 'b', '2', 'é'];
const LITERALS = ['true', 'false', 'null'] as const;
// Small vocabularies, so names, keys and whole calls repeat. No `$` keys: Assay's matchers have no ADK counterpart.
const NAMES = ['search', 'book', 'pay'];
const KEYS = ['q', 'n', 'opts'];

/** The pair generator: an expected trajectory drawn from a few calls, and an actual one mutated from it. */
export function trajectoryPairs(seed: number, count: number): { expected: AdkCall[]; actual: AdkCall[] }[] {
  const random = seededRandom(seed);
  const int = (below: number): number => Math.floor(random() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const shuffled = <T>(items: readonly T[]): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  };

  const entries = (depth: number): [string, Value][] =>
    shuffled(KEYS)
      .slice(0, int(3))
      .map((key) => [key, value(depth + 1)]);
  const value = (depth: number): Value => {
    const roll = random();
    if (roll < 0.35) return { kind: 'number', spellings: pick(NUMBERS) };
    if (roll < 0.6) return { kind: 'string', text: pick(STRINGS) };
    if (roll < 0.7 || depth >= 2) return { kind: 'literal', text: pick(LITERALS) };
    if (roll < 0.85) return { kind: 'array', items: Array.from({ length: int(3) }, () => value(depth + 1)) };
    return { kind: 'object', entries: entries(depth) };
  };
  const call = (): Call => ({ name: pick(NAMES), args: entries(0) });
  // The same args but one value: a key dropped, or one leaf, at any depth, drawn afresh.
  const nearMiss = (object: [string, Value][]): [string, Value][] => {
    if (object.length === 0) return [[pick(KEYS), value(1)]];
    const i = int(object.length);
    return random() < 0.2 ? object.toSpliced(i, 1) : object.toSpliced(i, 1, [object[i][0], tweaked(object[i][1])]);
  };
  const tweaked = (v: Value): Value => {
    if (v.kind === 'object' && v.entries.length) return { kind: 'object', entries: nearMiss(v.entries) };
    if (v.kind !== 'array' || v.items.length === 0) return value(1);
    const i = int(v.items.length);
    return { kind: 'array', items: v.items.toSpliced(i, 1, tweaked(v.items[i])) };
  };

  // Each rendering picks its own spellings and key order, so equal calls rarely have equal texts.
  const escaped = (text: string): string =>
    `"${[...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
  const render = (v: Value): string => {
    if (v.kind === 'number') return pick(v.spellings);
    if (v.kind === 'string') return random() < 0.5 ? JSON.stringify(v.text) : escaped(v.text);
    if (v.kind === 'literal') return v.text;
    if (v.kind === 'array') return `[${v.items.map(render).join(',')}]`;
    return renderObject(v.entries);
  };
  const renderObject = (object: [string, Value][]): string =>
    `{${shuffled(object)
      .map(([key, v]) => `${JSON.stringify(key)}:${render(v)}`)
      .join(',')}}`;
  const rendered = (calls: readonly Call[]): AdkCall[] =>
    calls.map((c) => ({ name: c.name, argsText: renderObject(c.args) }));

  const mutations: ((calls: Call[], pool: readonly Call[]) => Call[])[] = [
    (calls) => shuffled(calls),
    (calls) => calls.toSpliced(int(calls.length), 1),
    (calls, pool) => calls.toSpliced(int(calls.length + 1), 0, random() < 0.5 ? pick(pool) : call()),
    (calls) => calls.map((c) => (random() < 0.4 ? { name: c.name, args: nearMiss(c.args) } : c)),
    (calls) => (calls.length ? calls.toSpliced(int(calls.length), 0, pick(calls)) : calls),
    (calls) => calls.toReversed(),
    () => [],
  ];
  return Array.from({ length: count }, () => {
    const pool = Array.from({ length: 1 + int(3) }, call);
    const expected = Array.from({ length: int(5) }, () => pick(pool));
    let actual = expected;
    for (let m = int(4); m > 0; m--) actual = pick(mutations)(actual, pool);
    return { expected: rendered(expected), actual: rendered(actual) };
  });
}
