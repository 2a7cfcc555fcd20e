import fc from 'fast-check';
import { mutationsOf, valueFor, type JsonSchema, type SchemaContext } from './fuzz-schema';
import { hostileString, hostileValue, PROTOTYPE_KEYS, toJsonText } from './fuzz-values';

/** One generated request; prints as a short summary (bodies can be megabytes). */
export class FuzzRequest {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly url: string,
    readonly headers: Record<string, string>,
    readonly body?: { type: string; text: string },
  ) {}

  [fc.toStringMethod](): string {
    const body = this.body ? ` ${this.body.type} ${JSON.stringify(this.body.text.slice(0, 300))}` : '';
    const size = this.body && this.body.text.length > 300 ? ` (${this.body.text.length} chars)` : '';
    const headers = { ...this.headers, ...(this.headers.Authorization ? { Authorization: 'Bearer …' } : {}) };
    return `${this.method.toUpperCase()} ${this.url.slice(0, 300)} ${JSON.stringify(headers)}${body}${size}`;
  }
}

/** Where the suite's generators get real ids and headers from. */
export interface FuzzContext extends SchemaContext {
  /** A real id for the path parameter after `segment` (`ai-agents`, `mcp-servers` …), if there is one. */
  fixtureFor(segment: string): string | undefined;
  /** Known-good bodies of an operation (`POST /api/v1/flows`), where the schema alone rarely makes one. */
  examples(operation: string): unknown[];
  /** Headers of a normal caller, of other callers (no token, another workspace, a viewer), and per route. */
  headers: fc.Arbitrary<Record<string, string>>;
  extraHeaders(path: string): Record<string, string>;
}

// Percent-encodes a segment; a lone surrogate has no UTF-8 form, so it goes as the bytes a careless client sends.
const encode = (text: string): string => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

// Path segments stay under the URL bound (`requestUrlBytes`; past it the api answers 414 before any route); a rare
// query value goes over it and over Node's 16 KiB limit (`oversize`), so that answer is checked against the document too.
// An empty segment would be another route (`…/cases/` lists cases), so a segment always has a character.
const shortHostile = hostileString.map((s) => encode(s.slice(0, 200)) || '%20');

/** Path segments: encoded hostile strings, prototype keys, unknown UUIDs and malformed percent-encoding. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: shortHostile },
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.constantFrom('%00', '%ED%A0%80', '%E0%A4%A', '%', '%zz', '%2F', '%20', '%C0%AE', '%FF') },
);

/** A concrete path for `template`: each `{param}` a real id (when allowed) or a hostile segment. */
export function pathFor(template: string, ctx: FuzzContext, realIds: boolean): fc.Arbitrary<string> {
  const parts = template.split('/').map((part, i, all): fc.Arbitrary<string> => {
    if (!/^\{.+\}$/.test(part)) return fc.constant(part);
    const fixture = realIds ? ctx.fixtureFor(all[i - 1]) : undefined;
    return fixture ? fc.oneof({ weight: 3, arbitrary: fc.constant(encode(fixture)) }, hostileSegment) : hostileSegment;
  });
  return fc.tuple(...parts).map((segments) => segments.join('/'));
}

const QUERY_VALUES = ['-1', '0', '1', '2', '50', '500', '501', '1e3', 'NaN', 'Infinity', '0x10', '1.5', '%205'];
const oversize = fc.constant(null).map(() => 'c'.repeat(17_000));
const queryValue = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.constantFrom(
      ...QUERY_VALUES,
      '',
      '99999999999999999999',
      'eyJ9',
      'eyJpZCI6IngifQ',
      '%00',
      '%ED%A0%80',
    ),
  },
  { weight: 10, arbitrary: shortHostile },
  { weight: 1, arbitrary: oversize },
);

/** Query strings: documented and paging parameters with hostile values, repeated and bracketed keys. */
export function queryFor(names: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(fc.constantFrom(...names, 'limit', 'cursor'), fc.constantFrom(...PROTOTYPE_KEYS));
  const pair = fc
    .tuple(key, fc.constantFrom('', '[]', '[a]', '[__proto__]'), queryValue)
    .map(([k, suffix, v]) => `${encode(k)}${suffix}=${v}`);
  return fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.join('&')}`);
}

// Malformed JSON, and valid JSON that JSON.stringify never writes (a BOM, an escaped lone surrogate).
const RAW_JSON_TEXTS = ['{', '{"a":', '[1,]', "{'a':1}", 'nul', '\u0000', '{"a":1}}', '\uFEFF{}', '{"a":"\\ud800"}'];

/**
 * Bodies: honest ones (from the schema, or a known-good example that gets past the checks a schema cannot say),
 * mutated ones, wrong types, malformed JSON, other media types, oversized.
 */
export function bodyFor(
  schema: JsonSchema,
  ctx: SchemaContext,
  examples: unknown[] = [],
): fc.Arbitrary<{ type: string; text: string }> {
  const generated = valueFor(schema, ctx);
  const honest = examples.length > 0 ? fc.oneof(generated, fc.constantFrom(...examples)) : generated;
  const json = (value: unknown): { type: string; text: string } => ({
    type: 'application/json',
    text: toJsonText(value),
  });
  const mediaTypes = [
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=utf-16',
    'text/xml',
  ];
  const malformed = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...RAW_JSON_TEXTS).map((text) => ({ type: 'application/json', text })) },
    {
      weight: 4,
      arbitrary: fc.tuple(fc.constantFrom(...mediaTypes), honest).map(([type, v]) => ({ type, text: toJsonText(v) })),
    },
    // Over BODY_LIMIT (1 MB by default): rare, each one is a megabyte on the wire.
    { weight: 1, arbitrary: fc.constant(null).map(() => json({ padding: 'x'.repeat(1_100_000) })) },
  );
  return fc.oneof(
    { weight: 3, arbitrary: honest.map(json) },
    { weight: 10, arbitrary: mutationsOf(honest).map(json) },
    { weight: 3, arbitrary: hostileValue.map(json) },
    { weight: 2, arbitrary: malformed },
  );
}

/** A request to one operation of the document. */
export function requestFor(
  method: string,
  template: string,
  ctx: FuzzContext,
  parts: { body?: JsonSchema; query?: string[]; realIds: boolean },
): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      path: pathFor(template, ctx, parts.realIds),
      query: parts.query ? fc.option(queryFor(parts.query), { nil: undefined, freq: 4 }) : fc.constant(undefined),
      body: parts.body
        ? bodyFor(parts.body, ctx, ctx.examples(`${method.toUpperCase()} ${template}`))
        : fc.constant(undefined),
      headers: ctx.headers,
    })
    .map(
      ({ path, query, body, headers }) =>
        new FuzzRequest(method, template, `${path}${query ?? ''}`, { ...headers, ...ctx.extraHeaders(template) }, body),
    );
}
