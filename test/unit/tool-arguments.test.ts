import assert from 'node:assert/strict';
import { toolArgumentProblem } from '../../domain/mcp/tool-arguments';
import { flattenParameters } from '../../domain/mcp/tool-parameters';

const toolOf = (inputSchema: Record<string, unknown>) => ({
  parameters: flattenParameters(inputSchema),
  input_schema: inputSchema,
});

const sum = toolOf({
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'integer' }, note: { type: ['string', 'null'] }, any: {} },
  required: ['a', 'b'],
  additionalProperties: false,
});

describe('tool call arguments against a stored input schema', () => {
  it('accepts arguments of the declared types, an integer for a number, and a property without a type', () => {
    assert.equal(toolArgumentProblem(sum, { a: 2, b: 3, note: null, any: [1] }, 'arguments'), undefined);
  });

  it('names a value of another type, a missing required parameter and a name the schema refuses', () => {
    assert.deepEqual(toolArgumentProblem(sum, { a: 'two', b: 3 }, 'arguments'), {
      field: 'arguments.a',
      message: 'must be of type number, not string',
    });
    assert.deepEqual(toolArgumentProblem(sum, { a: 1, b: 1.5 }, 'arguments'), {
      field: 'arguments.b',
      message: 'must be of type integer, not number',
    });
    assert.deepEqual(toolArgumentProblem(sum, { a: 1 }, 'arguments'), { field: 'arguments.b', message: 'is required' });
    assert.deepEqual(toolArgumentProblem(sum, { a: 1, b: 2, c: 3 }, 'arguments'), {
      field: 'arguments.c',
      message: 'is not a parameter of the tool',
    });
  });

  it('takes other names when the schema allows them or says nothing of them', () => {
    const open = toolOf({ type: 'object', properties: { a: { type: 'number' } } });
    assert.equal(toolArgumentProblem(open, { a: 1, extra: 'x' }, 'arguments'), undefined);
    const loose = toolOf({ type: 'object', additionalProperties: { type: 'string' } });
    assert.equal(toolArgumentProblem(loose, { anything: 'x' }, 'arguments'), undefined);
  });
});
