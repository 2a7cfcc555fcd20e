import assert from 'node:assert/strict';
import { diffTools, stableJson } from '../../domain/mcp/tool-changes';
import { coerceArgument, flattenParameters } from '../../domain/mcp/tool-parameters';

describe('tool parameters', () => {
  it('flattens an input schema into name, type, description and required, in schema order', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'number', description: 'First number' },
        label: { type: ['string', 'null'], title: 'Label' },
        mode: { anyOf: [{ type: 'null' }, { type: 'integer' }] },
        opts: { properties: { x: { type: 'string' } } },
        tags: { items: { type: 'string' } },
        free: {},
      },
      required: ['a', 'tags'],
    };
    assert.deepEqual(flattenParameters(schema), [
      { name: 'a', type: 'number', description: 'First number', required: true },
      { name: 'label', type: 'string', description: 'Label', required: false },
      { name: 'mode', type: 'integer', description: '', required: false },
      { name: 'opts', type: 'object', description: '', required: false },
      { name: 'tags', type: 'array', description: '', required: true },
      { name: 'free', type: 'string', description: '', required: false },
    ]);
  });

  it('has no parameters for a schema without properties', () => {
    assert.deepEqual(flattenParameters({ type: 'object' }), []);
    assert.deepEqual(flattenParameters(undefined), []);
  });

  it('converts rendered text to the parameter type only when unambiguous', () => {
    assert.equal(coerceArgument('2', 'number'), 2);
    assert.equal(coerceArgument(' 7 ', 'integer'), 7);
    assert.equal(coerceArgument('two', 'number'), 'two');
    assert.equal(coerceArgument('', 'number'), '');
    assert.equal(coerceArgument('true', 'boolean'), true);
    assert.deepEqual(coerceArgument('{"x":1}', 'object'), { x: 1 });
    assert.equal(coerceArgument('{broken', 'object'), '{broken');
    assert.equal(coerceArgument('2', 'string'), '2');
    assert.equal(coerceArgument(3, 'string'), 3);
  });
});

describe('tool changes', () => {
  it('names added, removed and changed tools, sorted', () => {
    const previous = new Map([
      ['keep', 'h1'],
      ['gone', 'h2'],
      ['edit', 'h3'],
    ]);
    const next = new Map([
      ['keep', 'h1'],
      ['edit', 'h3-new'],
      ['fresh', 'h4'],
    ]);
    assert.deepEqual(diffTools(previous, next), { added: ['fresh'], removed: ['gone'], changed: ['edit'] });
  });

  it('serialises equal objects with different key order identically', () => {
    assert.equal(
      stableJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } }),
      stableJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
    assert.notEqual(stableJson({ a: 1 }), stableJson({ a: 2 }));
  });
});
