import assert from 'node:assert/strict';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { answerElicitation } from '../../lib/outbound/mcp/elicitation';
import { toolResultProblem } from '../../lib/outbound/mcp/output-schema';

describe('MCP client: unattended elicitation answers and structured result checks', () => {
  type Fields = ElicitRequestFormParams['requestedSchema']['properties'];
  const form = (properties: Fields, required?: string[]): ElicitRequestFormParams => ({
    message: 'm',
    requestedSchema: { type: 'object', properties, ...(required ? { required } : {}) },
  });

  it('accepts with the defaults when every required field has one, leaving out optional fields without one', () => {
    const params = form(
      {
        n: { type: 'integer', default: 0 },
        s: { type: 'string', enum: ['a', 'b'], default: 'b' },
        off: { type: 'boolean', default: false },
        free: { type: 'string' },
      },
      ['n', 'off'],
    );
    assert.deepEqual(answerElicitation(params), {
      action: 'accept',
      content: { n: 0, s: 'b', off: false },
    });
    assert.deepEqual(answerElicitation(form({ free: { type: 'string' } })), { action: 'accept', content: {} });
  });

  it('declines a required field without a default, and a URL-mode request', () => {
    const params = form({ name: { type: 'string' }, n: { type: 'number', default: 1 } }, ['n', 'name']);
    assert.deepEqual(answerElicitation(params), { action: 'decline' });
    const url = { mode: 'url' as const, message: 'open', url: 'https://example.test/', elicitationId: 'e1' };
    assert.deepEqual(answerElicitation(url), { action: 'decline' });
  });

  it('checks structuredContent against a declared outputSchema only, and not on an error result', () => {
    const schema = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] };
    assert.equal(toolResultProblem(schema, { structuredContent: { total: 1 } }), null);
    assert.equal(toolResultProblem(null, { structuredContent: { total: 'x' } }), null);
    assert.equal(toolResultProblem(schema, { isError: true }), null);
    assert.equal(toolResultProblem(schema, {}), 'declares an outputSchema but returned no structuredContent');
    assert.match(
      toolResultProblem(schema, { structuredContent: { total: 'x' } }) ?? '',
      /^returned structuredContent that does not match its outputSchema: .*total must be number/,
    );
    // The same schema again uses the cached check and answers the same.
    assert.equal(toolResultProblem({ ...schema }, { structuredContent: { total: 2 } }), null);
  });
});
