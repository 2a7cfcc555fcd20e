import fc from 'fast-check';

/** Keys that reach Object.prototype when code reads or writes them on a plain object. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

// A marker the serializer turns into raw JSON text: numbers JSON.stringify cannot write (1e999, -0, 1.0), and
// nesting deeper than JSON.stringify's recursion reaches.
const RAW = '\u0001raw:';

/** Raw JSON text of numbers and brackets (for example `1e999`, which JSON.parse reads as Infinity). */
export const rawJson = (text: string): string => `${RAW}${text}`;

/** JSON text of `value`, with raw fragments written as themselves. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:([-+.\w[\]]*)"/g, '$1');
}

/** A plain object with exactly these own entries (`__proto__` included, as JSON.parse would make it). */
export const objectOf = (entries: Array<[string, unknown]>): Record<string, unknown> => Object.fromEntries(entries);

const EDGE_STRINGS = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDBFFy',
  '\uDC00\uD800',
  '\u202Egnp.exe',
  '\u200F\u05E9\u05DC\u05D5\u05DD',
  '\u0645\u0631\u062D\u0628\u0627',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0302\u0303\u0304\u0305\u0306\u0307',
  '\uFEFFbom',
  '\uFFFE\uFFFF',
  '\u2028\u2029',
  '\u001b[31mred',
  '{{ constructor }}',
  '{{nodes.__proto__.output}}',
  '$SECRET',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '<script>alert(1)</script>',
  '00000000-0000-0000-0000-000000000000',
  'NaN',
  '1e309',
  'ＡＢＣ',
  'İı',
  ...PROTOTYPE_KEYS,
];

/** UTF-16 code units of every kind, lone surrogates included. */
const codeUnit = fc.nat(0xffff).map((code) => String.fromCharCode(code));

/** Strings a careless or hostile client sends: edge cases, random code units, and long ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: codeUnit, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '😀', '\u0301', ' '), fc.integer({ min: 1_000, max: 120_000 }))
      .map(([unit, count]) => unit.repeat(count)),
  },
);

/** Numbers at the edges of what JSON, JavaScript and Postgres represent. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -1, 1, 0.5, -0.5, 9, 10, 500, 501, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2),
  fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER),
  fc.constantFrom('1e999', '-1e999', '-0', '1.0', '1e-400', '123456789012345678901234567890').map(rawJson),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** An array nested up to 100,000 levels deep (as raw text: JSON.stringify recurses), or an object chain. */
export const deepValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: 30, max: 100_000 }).map((depth) => rawJson(`${'['.repeat(depth)}0${']'.repeat(depth)}`)),
  fc.integer({ min: 30, max: 500 }).map((depth) => {
    let value: unknown = 'bottom';
    for (let level = 0; level < depth; level++) value = { a: value };
    return value;
  }),
);

/** Arrays and objects far over any sensible size, still under the body limit. */
export const hugeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: 1_001, max: 60_000 }).map((length) => Array.from({ length }, () => 0)),
  fc.integer({ min: 501, max: 20_000 }).map((keys) => objectOf(Array.from({ length: keys }, (_, i) => [`k${i}`, i]))),
  fc
    .integer({ min: 1_001, max: 5_000 })
    .map((length) => Array.from({ length }, (_, i) => ({ tool_name: `t${i}`, tool_args: {} }))),
);

/** An object whose keys are prototype keys, with hostile values. */
export const prototypeKeyed: fc.Arbitrary<unknown> = fc
  .array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS), fc.oneof(hostileString, fc.constant({}), fc.constant(null))), {
    minLength: 1,
    maxLength: 4,
  })
  .map(objectOf);

/** Any JSON value a hostile client might put where something else belongs. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { '': '' }) },
  { weight: 2, arbitrary: prototypeKeyed },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: hugeValue },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Keys for extra or replaced object fields. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS, '', ' ', '\u0000', '\uD800', 'a.b', '0', '$ref', 'message\u200B'),
  fc.string({ unit: codeUnit, maxLength: 12 }),
);
