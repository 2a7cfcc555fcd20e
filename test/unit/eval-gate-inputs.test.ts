import assert from 'node:assert/strict';
import { missingCases, parseConversations, pointAtItems } from '../../cli/eval-gate-inputs';
import { LIMITS } from '../../domain/limits';

const item = (ref: string): string =>
  JSON.stringify({ case: ref, session_input: { message: 'hi' }, final_response: 'ok' });

describe('agent:eval conversations file', () => {
  it('reads JSONL one conversation a line, skipping blank lines and remembering each line number', () => {
    const file = parseConversations(`${item('a')}\n\n${item('b')}\r\n${item('c')}\n`, 'new.jsonl');
    assert.deepEqual(
      file.items.map((i) => i.case),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(file.lines, [1, 3, 4]);
    assert.deepEqual(file.items[0].session_input, { message: 'hi' });
  });

  it('reads a JSON array (leading whitespace allowed) with no line numbers', () => {
    const file = parseConversations(`  \n[${item('a')}, ${item('b')}]`, 'new.json');
    assert.deepEqual(
      file.items.map((i) => i.case),
      ['a', 'b'],
    );
    assert.equal(file.lines, null);
  });

  it('names the line of invalid JSON and of an item without a case', () => {
    assert.throws(() => parseConversations(`${item('a')}\n{oops\n`, 'new.jsonl'), /new\.jsonl line 2: not valid JSON/);
    assert.throws(
      () => parseConversations(`${item('a')}\n\n{"final_response":"x"}\n`, 'new.jsonl'),
      /new\.jsonl line 3: "case" must be the id or name of a case/,
    );
    assert.throws(() => parseConversations('[1]', 'new.json'), /new\.json item 0: must be a JSON object/);
    assert.throws(() => parseConversations('[{"case": "  "}]', 'new.json'), /new\.json item 0: "case"/);
    assert.throws(() => parseConversations(`{"case": "${'x'.repeat(201)}"}`, 'n.jsonl'), /n\.jsonl line 1: "case"/);
  });

  it('refuses an empty file and one with more conversations than a set has cases', () => {
    assert.throws(() => parseConversations('\n\n', 'empty.jsonl'), /empty\.jsonl has no conversations/);
    assert.throws(() => parseConversations('[]', 'empty.json'), /empty\.json has no conversations/);
    const many = Array.from({ length: LIMITS.casesPerEvalSet + 1 }, (_, i) => `{"case":"c${i}"}`).join('\n');
    assert.throws(() => parseConversations(many, 'big.jsonl'), /big\.jsonl has 10001 conversations: at most 10000/);
  });

  it("rewrites the batch import's items[i] to the JSONL line or the array index", () => {
    const jsonl = parseConversations(`\n${item('a')}\n\n${item('b')}`, 'new.jsonl');
    assert.equal(
      pointAtItems('items[1].session_input: Required', jsonl, 'new.jsonl'),
      'new.jsonl line 4 › session_input: Required',
    );
    assert.equal(pointAtItems('items[0]: case named twice', jsonl, 'new.jsonl'), 'new.jsonl line 2: case named twice');
    assert.equal(pointAtItems('items[7].x: y', jsonl, 'new.jsonl'), 'items[7].x: y', 'an index past the file stays');
    const array = parseConversations(`[${item('a')}]`, 'new.json');
    assert.equal(pointAtItems('items[0].case: unknown', array, 'new.json'), 'new.json item 0 › case: unknown');
  });

  it('finds the cases no conversation names, by id or by name, in the order of the set', () => {
    const cases = [
      { id: 'id-1', name: 'one' },
      { id: 'id-2', name: 'two' },
      { id: 'id-3', name: 'three' },
      { id: 'id-4', name: 'four' },
    ];
    const { items } = parseConversations([item('one'), item('id-3')].join('\n'), 'f.jsonl');
    assert.deepEqual(
      missingCases(cases, items).map((c) => c.name),
      ['two', 'four'],
    );
    assert.deepEqual(missingCases(cases.slice(0, 1), items), []);
  });
});
