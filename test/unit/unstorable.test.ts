import assert from 'node:assert/strict';
import { MAX_JSON_DEPTH } from '../../domain/limit-checks';
import { unstorable } from '../../api/unstorable';

const nest = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('the walk for values Postgres cannot store', () => {
  it('names the field of a NUL or a lone surrogate, in a key or a value, through lists and objects', () => {
    assert.deepEqual(unstorable({ a: [{ b: 'x' }, { c: 'y\u0000' }] }), {
      field: 'a.1.c',
      message: 'must not contain NUL characters',
    });
    assert.deepEqual(unstorable({ a: { ['k\ud800']: 1 } }), {
      field: 'a.k\ud800',
      message: 'must be well-formed Unicode (no lone surrogates)',
    });
    assert.deepEqual(unstorable('\u0000'), { field: '(body)', message: 'must not contain NUL characters' });
    assert.equal(unstorable({ a: ['fine', 1, null, { b: 'é😀' }] }), undefined);
  });

  it('refuses nesting from MAX_JSON_DEPTH levels on, naming the container', () => {
    assert.equal(unstorable(nest(MAX_JSON_DEPTH)), undefined);
    const deep = unstorable(nest(MAX_JSON_DEPTH + 1));
    assert.equal(deep?.field, Array.from({ length: MAX_JSON_DEPTH }, () => 'a').join('.'));
    assert.equal(deep?.message, `must not nest deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('walks a list of a million scalars, naming only the element at fault', () => {
    const list: unknown[] = Array.from({ length: 1_000_000 }, () => 0);
    assert.equal(unstorable({ list }), undefined);
    list[999_999] = '\u0000';
    assert.deepEqual(unstorable({ list }), { field: 'list.999999', message: 'must not contain NUL characters' });
  });
});
