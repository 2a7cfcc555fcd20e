import fc from 'fast-check';
import { hostileKey, hostileNumber, hostileString, hostileValue, objectOf } from './fuzz-values';

/** The part of JSON Schema (as /openapi.json writes it) the generator reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

/** What the generator needs besides the schema: `$ref` lookup and real ids to put in `*_id` fields. */
export interface SchemaContext {
  resolve(ref: string): JsonSchema;
  ids: readonly string[];
}

// Honest values stay small and fast to send: size is what the mutations are for.
const SMALL = 3;

function stringFor(schema: JsonSchema, name: string, ctx: SchemaContext): fc.Arbitrary<string> {
  const generated = (): fc.Arbitrary<string> => {
    if (schema.format === 'uuid') return fc.uuid();
    if (schema.format === 'uri' || schema.format === 'url') return fc.webUrl();
    if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { maxLength: schema.maxLength ?? 64 });
    const minLength = schema.minLength ?? 0;
    return fc
      .string({
        minLength: Math.max(minLength, 1),
        maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 24, 24)),
      })
      .filter((s) => s.trim() !== '');
  };
  if (/(^|_)id$/.test(name) && ctx.ids.length > 0) return fc.oneof(fc.constantFrom(...ctx.ids), generated());
  return generated();
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum === undefined ? -1_000 : schema.exclusiveMinimum + 1);
  const max = schema.maximum ?? 1_000;
  return integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
}

function objectFor(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const fields = Object.entries(properties).map(([key, sub]) => ({
    key,
    arbitrary: valueFor(sub, ctx, depth + 1, key),
    required: required.includes(key),
  }));
  const extra =
    typeof schema.additionalProperties === 'object'
      ? fc.array(
          fc.tuple(
            fc.string({ minLength: 1, maxLength: 8 }),
            valueFor(schema.additionalProperties, ctx, depth + 1, ''),
          ),
          {
            maxLength: SMALL,
          },
        )
      : fc.constant([] as Array<[string, unknown]>);
  return fc
    .tuple(
      fc.tuple(...fields.map((f) => (f.required ? f.arbitrary : fc.option(f.arbitrary, { nil: undefined })))),
      extra,
    )
    .map(([values, more]) =>
      objectOf([
        ...more,
        ...fields.flatMap((f, i): Array<[string, unknown]> => (values[i] === undefined ? [] : [[f.key, values[i]]])),
      ]),
    );
}

/** Values that (mostly) satisfy `schema`: the honest requests the hostile ones are made from. */
export function valueFor(schema: JsonSchema, ctx: SchemaContext, depth = 0, name = ''): fc.Arbitrary<unknown> {
  if (schema.$ref) return valueFor(ctx.resolve(schema.$ref), ctx, depth, name);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => valueFor(choice, ctx, depth, name)));
  if (schema.allOf?.length) return valueFor(schema.allOf[0], ctx, depth, name);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => valueFor({ ...schema, type }, ctx, depth, name)));
  switch (types[0]) {
    case 'string':
      return stringFor(schema, name, ctx);
    case 'integer':
    case 'number':
      return numberFor(schema, types[0] === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? valueFor(schema.items, ctx, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? SMALL, SMALL)),
      });
    case 'object':
      return objectFor(schema, ctx, depth);
    default:
      return depth > 2 ? fc.constant('x') : fc.jsonValue({ maxDepth: 2 });
  }
}

type Path = Array<string | number>;
type Place = { path: Path; value: unknown };

// Every value inside `value` with its path, the root first.
function places(value: unknown, path: Path = [], out: Place[] = []): Place[] {
  out.push({ path, value });
  if (value === null || typeof value !== 'object' || path.length > 6) return out;
  for (const key of Object.keys(value))
    places((value as Record<string, unknown>)[key], [...path, Array.isArray(value) ? Number(key) : key], out);
  return out;
}

// A copy of `root` with the value at `path` replaced (`undefined`: removed); own properties only, `__proto__` too.
function replaced(root: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const [key, ...rest] = path;
  const entries = Object.entries(root as object).flatMap(([k, v]): Array<[string, unknown]> => {
    if (k !== String(key)) return [[k, v]];
    const value = replaced(v, rest, next);
    return value === undefined ? [] : [[k, value]];
  });
  return Array.isArray(root) ? entries.map(([, v]) => v) : objectOf(entries);
}

const sameKind = (value: unknown): fc.Arbitrary<unknown> =>
  typeof value === 'string' ? hostileString : typeof value === 'number' ? hostileNumber : hostileValue;

/**
 * Mutations of an honest value, one change each: a value of the same kind but hostile (most likely to get past
 * validation and reach storage), a value of any kind, a field removed, or an extra key on any object.
 */
export function mutationsOf(honest: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return honest.chain((value) => {
    const all = places(value);
    const inner = all.filter((p) => p.path.length > 0);
    const objects = all.filter((p) => p.value !== null && typeof p.value === 'object' && !Array.isArray(p.value));
    const pick = (list: Place[]): fc.Arbitrary<Place> => fc.nat(list.length - 1).map((i) => list[i]);
    const mutations: Array<fc.Arbitrary<unknown>> = [
      pick(all).chain((p) => sameKind(p.value).map((v) => replaced(value, p.path, v))),
      pick(all).chain((p) => hostileValue.map((v) => replaced(value, p.path, v))),
    ];
    if (inner.length > 0) mutations.push(pick(inner).map((p) => replaced(value, p.path, undefined)));
    if (objects.length > 0)
      mutations.push(
        fc
          .tuple(pick(objects), hostileKey, hostileValue)
          .map(([p, key, v]) => replaced(value, p.path, objectOf([...Object.entries(p.value as object), [key, v]]))),
      );
    return fc.oneof(...mutations);
  });
}
