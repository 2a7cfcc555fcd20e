import assert from 'node:assert/strict';
import { builtinToolDef, parseToolArguments, toolParameters, uniqueToolName } from '../../domain/agent/agent-tools';
import { findReplay } from '../../domain/trajectory/tool-replay';

describe('agent tools', () => {
  it('names MCP tools <server>__<tool>, sanitised, unique and at most 64 characters', () => {
    const taken = new Set(['crm_update_contact']);
    assert.equal(uniqueToolName('everything', 'get-sum', taken), 'everything__get-sum');
    assert.equal(uniqueToolName('everything', 'get-sum', taken), 'everything__get-sum_2');
    assert.equal(uniqueToolName('My Server!', 'do.it', taken), 'My_Server__do_it');
    const long = uniqueToolName('s'.repeat(40), 't'.repeat(40), taken);
    assert.equal(long.length, 64);
    const again = uniqueToolName('s'.repeat(40), 't'.repeat(40), taken);
    assert.ok(again.length <= 64 && again !== long && again.endsWith('_2'));
  });

  it('offers built-in tools with JSON-schema parameters from their validators', () => {
    const tool = builtinToolDef('messaging_send_message');
    assert.equal(tool.parameters.type, 'object');
    assert.deepEqual(tool.parameters.required, ['channel', 'to', 'text']);
    assert.equal('$schema' in tool.parameters, false);
  });

  it('always gives the model an object schema and reads arguments only as a JSON object', () => {
    assert.deepEqual(toolParameters({ type: 'object', properties: { a: { type: 'number' } } }), {
      type: 'object',
      properties: { a: { type: 'number' } },
    });
    assert.deepEqual(toolParameters(null), { type: 'object', properties: {} });
    assert.deepEqual(parseToolArguments('{"a":1}'), { ok: true, args: { a: 1 } });
    assert.deepEqual(parseToolArguments(''), { ok: true, args: {} });
    assert.equal(parseToolArguments('[1]').ok, false);
    assert.equal(parseToolArguments('{oops').ok, false);
  });

  it('replays the first unused recorded call of the same tool (name and server) with deep-equal arguments', () => {
    const sum = { name: 'sum', server: 'srv', modelName: 'srv__sum' };
    const recorded = [
      { tool_name: 'sum', server: 'srv', tool_args: { a: 1, b: 2 }, result: 'first' },
      { tool_name: 'sum', server: 'srv', tool_args: { b: 2, a: 1 }, result: 'second' },
      { tool_name: 'sum', server: 'srv', tool_args: { a: 5 } },
    ];
    assert.equal(findReplay(recorded, [], sum, { b: 2, a: 1 }), 0);
    assert.equal(findReplay(recorded, [0], sum, { a: 1, b: 2 }), 1);
    assert.equal(findReplay(recorded, [0, 1], sum, { a: 1, b: 2 }), null);
    assert.equal(findReplay(recorded, [], sum, { a: 5 }), null, 'a recording without a result is not replayed');
    assert.equal(findReplay(recorded, [], { ...sum, server: 'other' }, { a: 1, b: 2 }), null, 'another server');
    assert.equal(findReplay(recorded, [], { ...sum, name: 'add' }, { a: 1, b: 2 }), null, 'another tool');
  });

  it('replays a recording without a server for the tool of any server, and one recorded by the model name', () => {
    const sum = { name: 'sum', server: 'srv', modelName: 'srv__sum' };
    assert.equal(findReplay([{ tool_name: 'sum', tool_args: {}, result: 1 }], [], sum, {}), 0);
    assert.equal(findReplay([{ tool_name: 'srv__sum', tool_args: {}, result: 1 }], [], sum, {}), 0);
    assert.equal(findReplay([{ tool_name: 'srv__sum', tool_args: {}, result: 1 }], [], { name: 'sum' }, {}), null);
  });
});
