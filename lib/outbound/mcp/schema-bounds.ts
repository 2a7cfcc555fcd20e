import { limitMessage } from '../../../domain/limit-checks';
import { LIMITS } from '../../../domain/limits';

type Schema = boolean | Record<string, unknown>;

/** A server's output schema that cannot be checked in bounded time; the message names the limit. */
export class UncheckableSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UncheckableSchemaError';
  }
}

// Keywords whose value is one subschema, a list of them, or a map of them (the rest are plain values).
const ONE = new Set([
  'not',
  'if',
  'then',
  'else',
  'additionalItems',
  'contains',
  'propertyNames',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
// Without the patternProperties beside them, these would wrongly apply to the properties the patterns matched.
const AFTER_PATTERNS = new Set(['additionalProperties', 'unevaluatedProperties']);
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const MAP = new Set(['properties', 'dependentSchemas']);
// Left out: patterns would run on a backtracking engine, formats are regular expressions too, `uniqueItems` compares
// every pair of items, and ids, anchors and dynamic references would resolve outside the expanded tree.
const DROPPED = new Set([
  'pattern',
  'patternProperties',
  'format',
  'uniqueItems',
  '$id',
  'id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
  '$vocabulary',
  '$defs',
  'definitions',
]);

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'boolean' || (value !== null && typeof value === 'object' && !Array.isArray(value));

// `#/a/b~1c`: a JSON pointer into the same document (RFC 6901, percent-decoded as a URI fragment).
function resolvePointer(root: Schema, ref: string): Schema {
  const refuse = (): never => {
    throw new UncheckableSchemaError(`$ref ${JSON.stringify(ref.slice(0, 200))} does not point into the schema`);
  };
  if (ref !== '#' && !ref.startsWith('#/')) refuse();
  let target: unknown = root;
  for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return refuse();
    }
    if (target === null || typeof target !== 'object' || !Object.hasOwn(target, token)) refuse();
    target = (target as Record<string, unknown>)[token];
  }
  return isSchema(target) ? target : refuse();
}

/**
 * Expands a server's schema into a tree without `$ref` (a reference back into a schema being expanded, a recursive
 * one, accepts anything there) and without the keywords {@link DROPPED} lists, so checking a value costs at most one
 * step per subschema at each of its parts. Throws {@link UncheckableSchemaError} when the tree passes
 * `outputSchemaNodes` or `outputSchemaDepth`, or a reference leaves the schema.
 */
export function expandSchema(schema: unknown): Schema {
  if (!isSchema(schema)) throw new UncheckableSchemaError('it is not an object');
  let nodes = 0;
  const expanding: string[] = [];

  const expand = (node: Schema, depth: number): Schema => {
    nodes += 1;
    if (nodes > LIMITS.outputSchemaNodes)
      throw new UncheckableSchemaError(
        `it expands to more subschemas than allowed: ${limitMessage('outputSchemaNodes', 'items')}`,
      );
    if (depth > LIMITS.outputSchemaDepth)
      throw new UncheckableSchemaError(`it nests deeper than allowed: ${limitMessage('outputSchemaDepth', 'items')}`);
    if (typeof node === 'boolean') return node;
    const { $ref, ...rest } = node;
    const own = expandKeywords(rest, depth);
    if (typeof $ref !== 'string') return own;
    if (expanding.includes($ref)) return own;
    expanding.push($ref);
    const target = expand(resolvePointer(schema, $ref), depth + 1);
    expanding.pop();
    return Object.keys(own).length === 0 ? target : { allOf: [own, target] };
  };

  // Built from entries: a server's `__proto__` key stays a plain property.
  const expandKeywords = (node: Record<string, unknown>, depth: number): Record<string, unknown> => {
    const sub = (value: unknown): unknown => (isSchema(value) ? expand(value, depth + 1) : value);
    const subMap = (value: object): unknown =>
      Object.fromEntries(Object.entries(value).map(([name, v]) => [name, sub(v)]));
    const kept = Object.entries(node).filter(
      ([key]) => !DROPPED.has(key) && !(AFTER_PATTERNS.has(key) && 'patternProperties' in node),
    );
    return Object.fromEntries(
      kept.map(([key, value]) => {
        if (ONE.has(key)) return [key, sub(value)];
        if (key === 'items') return [key, Array.isArray(value) ? value.map(sub) : sub(value)];
        if (LIST.has(key) && Array.isArray(value)) return [key, value.map(sub)];
        if ((MAP.has(key) || key === 'dependencies') && isSchema(value) && typeof value === 'object')
          return [key, subMap(value)];
        return [key, value];
      }),
    );
  };

  return expand(schema, 0);
}
