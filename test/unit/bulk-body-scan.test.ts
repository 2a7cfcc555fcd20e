import assert from 'node:assert/strict';
import { bulkScanner, type BulkScan } from '../../domain/bulk-body-scan';
import { MAX_JSON_DEPTH } from '../../domain/limit-checks';

// Scans `text` fed in pieces of `piece` characters, as a body arrives.
function scan(text: string, jsonl = false, maxItems = Infinity, piece = 7): BulkScan {
  const bytes = Buffer.from(text);
  const scanner = bulkScanner(jsonl, maxItems);
  for (let i = 0; i < bytes.length; i += piece) scanner.write(bytes.subarray(i, i + piece));
  return scanner.result();
}

const deep = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('the bulk body scan', () => {
  it('counts the elements of a top-level list, whatever they hold', () => {
    assert.deepEqual(scan('[]'), { items: 0 });
    assert.deepEqual(scan(' [ 0 , "a,]b" , {"x":[1,2,3]} , null ] '), { items: 4 });
    assert.deepEqual(scan(JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ i, s: '[{' })))), { items: 1000 });
  });

  it('counts the lists directly under a top-level object (a file’s cases), naming the list of a problem', () => {
    const file = { format: 'f', name: 'n,"[', cases: [{ a: [1, 2] }, {}, {}], other: { deeper: [1, 2, 3, 4] } };
    assert.deepEqual(scan(JSON.stringify(file)), { items: 3 });
    assert.deepEqual(scan('{"eval_cases":[{},[0,0]]}'), {
      items: 2,
      problem: { list: 'eval_cases', item: 1, message: 'must be an object' },
    });
  });

  it('counts the non-blank lines of JSONL, a newline ending a line even inside a string', () => {
    assert.deepEqual(scan('{}\r\n\n  \n{"a":"x\n{}\n', true), { items: 3 });
    assert.deepEqual(scan('{}\n[1]\n[2]\n', true), { items: 2, problem: { item: 1, message: 'must be an object' } });
  });

  it('refuses nesting deeper than the walk allows, naming the item it is in', () => {
    assert.deepEqual(scan(`[${deep(MAX_JSON_DEPTH - 1)}]`), { items: 1 });
    const tooDeep = `must not nest deeper than ${MAX_JSON_DEPTH} levels`;
    assert.deepEqual(scan(`[{},${deep(MAX_JSON_DEPTH)}]`), { items: 2, problem: { item: 1, message: tooDeep } });
    assert.deepEqual(scan(deep(10_000)), { items: 0, problem: { message: tooDeep } });
    assert.deepEqual(scan(`{}\n${deep(MAX_JSON_DEPTH + 1)}`, true), {
      items: 2,
      problem: { item: 1, message: tooDeep },
    });
  });

  it('stops at the first problem or the first item past the bound, reading nothing after it', () => {
    const scanner = bulkScanner(false, 5);
    scanner.write(Buffer.from(`[${'{"a":[1,2]},'.repeat(5)}{},`));
    assert.equal(scanner.refused, true);
    scanner.write(Buffer.from('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['));
    assert.deepEqual(scanner.result(), { items: 6 });
    assert.deepEqual(scan(`[[0],${'{},'.repeat(20)}{}]`), {
      items: 1,
      problem: { item: 0, message: 'must be an object' },
    });
    assert.deepEqual(scan('{"cases":[{},{},{},{}]}', false, 3), { items: 4 });
  });

  it('reads keys and strings in any UTF-8, split anywhere', () => {
    const file = JSON.stringify({ 'ключ"[': 'значение]', cases: [{ é: '{[' }, [1]] });
    for (const piece of [1, 2, 3, 5])
      assert.deepEqual(scan(file, false, Infinity, piece), {
        items: 2,
        problem: { list: 'cases', item: 1, message: 'must be an object' },
      });
  });
});
