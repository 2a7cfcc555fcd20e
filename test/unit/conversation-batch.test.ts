import assert from 'node:assert/strict';
import { batchField, batchTooLarge, resolveBatchCases } from '../../domain/eval/conversation-batch';
import { parseJsonLines } from '../../domain/json/json-lines';
import { LIMITS } from '../../domain/limits';

const CASES = [
  { id: '00000000-0000-4000-8000-000000000001', name: 'lookup' },
  { id: '00000000-0000-4000-8000-000000000002', name: 'refund' },
  { id: '00000000-0000-4000-8000-000000000003', name: 'twin' },
  { id: '00000000-0000-4000-8000-000000000004', name: 'twin' },
];

describe('conversation batches', () => {
  it('names fields of items as items[<i>].<field>', () => {
    assert.equal(batchField('3.session_input.message'), 'items[3].session_input.message');
    assert.equal(batchField('0.tool_calls.1.tool_name'), 'items[0].tool_calls.1.tool_name');
    assert.equal(batchField('0'), 'items[0]');
    assert.equal(batchField('(body)'), 'items');
  });

  it('is too large only above the eval-set size', () => {
    assert.equal(batchTooLarge(LIMITS.casesPerEvalSet), false);
    assert.equal(batchTooLarge(LIMITS.casesPerEvalSet + 1), true);
  });

  it('resolves cases by id or name, in item order', () => {
    assert.deepEqual(resolveBatchCases(['refund', CASES[0].id, CASES[3].id], CASES), {
      caseIds: [CASES[1].id, CASES[0].id, CASES[3].id],
    });
  });

  it('names every unknown, ambiguous or repeated case, the repeat at its second item', () => {
    const resolved = resolveBatchCases(['nope', 'twin', 'lookup', CASES[0].id], CASES);
    assert.deepEqual(resolved, {
      issues: [
        { field: 'items[0].case', message: 'nope is not a case of this eval set' },
        { field: 'items[1].case', message: '2 cases are named twin: use the case id' },
        { field: 'items[3].case', message: 'case lookup already has a conversation in items[2]' },
      ],
    });
  });
});

describe('JSON lines', () => {
  it('parses one value a line, skipping blank lines and CR', () => {
    assert.deepEqual(parseJsonLines('{"a":1}\r\n\n  \n[2]\n"x"'), { values: [{ a: 1 }, [2], 'x'] });
    assert.deepEqual(parseJsonLines(''), { values: [] });
  });

  it('names every line that is not JSON as the item it should have been (non-blank lines from 0)', () => {
    assert.deepEqual(
      parseJsonLines('{"a":1}\n\n{oops\n{also bad', (i) => `items[${i}]`),
      {
        problems: [
          { field: 'items[1]', message: 'the line is not valid JSON' },
          { field: 'items[2]', message: 'the line is not valid JSON' },
        ],
      },
    );
  });

  it('refuses more lines than an eval set holds without parsing them', () => {
    assert.deepEqual(parseJsonLines('x\n'.repeat(LIMITS.casesPerEvalSet + 1)), { tooMany: LIMITS.casesPerEvalSet + 1 });
  });
});
