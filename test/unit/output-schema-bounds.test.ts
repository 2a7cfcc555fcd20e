import assert from 'node:assert/strict';
import { LIMITS } from '../../domain/limits';
import { outputSchemaProblem } from '../../lib/outbound/mcp/output-schema';
import { expandSchema } from '../../lib/outbound/mcp/schema-bounds';

describe('output schemas: expanded into a bounded tree before any check', () => {
  it('follows references within the schema, a recursive one accepting anything below it', () => {
    const tree = {
      $defs: { node: { type: 'object', properties: { v: { type: 'number' }, next: { $ref: '#/$defs/node' } } } },
      $ref: '#/$defs/node',
    };
    assert.equal(outputSchemaProblem(tree, { v: 1, next: { v: 2 } }), null);
    assert.match(outputSchemaProblem(tree, { v: 'one' }) ?? '', /v must be number/);
    assert.equal(outputSchemaProblem(tree, { v: 1, next: { v: 'anything below the recursion' } }), null);
  });

  it('keeps a property named like a dropped keyword, and enum values as given', () => {
    const schema = {
      type: 'object',
      properties: { pattern: { type: 'string' }, format: { enum: [{ pattern: 'x' }] } },
      required: ['pattern'],
    };
    assert.match(outputSchemaProblem(schema, {}) ?? '', /must have required property 'pattern'/);
    assert.equal(outputSchemaProblem(schema, { pattern: 'p', format: { pattern: 'x' } }), null);
    assert.match(outputSchemaProblem(schema, { pattern: 'p', format: {} }) ?? '', /format must pass "enum"/);
  });

  it('drops additionalProperties beside patternProperties rather than refuse what the patterns would allow', () => {
    const schema = { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false };
    assert.equal(outputSchemaProblem(schema, { 'x-id': 'a' }), null);
  });

  it('refuses references out of the schema and schemas past the bounds, naming the limit', () => {
    assert.match(outputSchemaProblem({ $ref: 'https://example.test/s.json' }, {}) ?? '', /does not point into/);
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: LIMITS.outputSchemaNodes }, (_, i) => [`p${i}`, {}])),
    };
    assert.match(outputSchemaProblem(wide, {}) ?? '', /\(limit outputSchemaNodes\)$/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i <= LIMITS.outputSchemaDepth; i++) deep = { type: 'object', properties: { a: deep } };
    assert.match(outputSchemaProblem(deep, {}) ?? '', /\(limit outputSchemaDepth\)$/);
  });

  it('keeps a server-sent __proto__ key a plain property', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"number"}}}') as unknown;
    const expanded = expandSchema(schema) as { properties: object };
    assert.equal(Object.getPrototypeOf(expanded.properties), Object.prototype);
    assert.deepEqual(Object.keys(expanded.properties), ['__proto__']);
  });
});
