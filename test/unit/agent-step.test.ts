import assert from 'node:assert/strict';
import { MAX_TOOL_CALLS_PER_STEP, recordModelReply, toolCallBudget } from '../../activities/agent/agent-step';
import { runtimeSettings } from '../../domain/agent/agent-settings';
import { LIMITS } from '../../domain/limits';
import { agentRunRow as run } from '../helpers/agent-run-row';

const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };

describe('recording a model step', () => {
  it(`runs at most ${MAX_TOOL_CALLS_PER_STEP} tool calls of a step and answers the rest with an error at once`, () => {
    const calls = Array.from({ length: 12 }, (_, i) => ({
      id: i === 5 ? 'dup' : i === 6 ? 'dup' : `c${i}`,
      name: 'crm_update_contact',
      arguments: `{"contact_id":"x${i}"}`,
    }));
    const { patch, value } = recordModelReply(
      run(),
      0,
      { content: null, toolCalls: calls, usage },
      runtimeSettings({}),
    );
    assert.deepEqual(value, { kind: 'tools', toolCalls: MAX_TOOL_CALLS_PER_STEP });
    const assistant = patch.messages?.[1];
    assert.ok(assistant?.role === 'assistant' && assistant.tool_calls?.length === 12);
    assert.equal(new Set(assistant.tool_calls.map((c) => c.id)).size, 12, 'tool call ids are unique within the step');
    assert.deepEqual(
      patch.tool_calls?.map((c) => [c.call_key, c.tool_args]),
      [
        ['0:10', { contact_id: 'x10' }],
        ['0:11', { contact_id: 'x11' }],
      ],
    );
    assert.ok(patch.tool_calls?.every((c) => /more than 10 tool calls/.test(c.error ?? '')));
    assert.deepEqual(patch.token_usage, { model_calls: 1, ...usage });
  });

  it('passes a final answer through the output guardrails, answering the safe reply on a block', () => {
    const settings = runtimeSettings({
      guardrails: [{ type: 'blocked_terms', name: 'no_competitors', terms: ['acme'] }],
      safe_reply: 'Let us talk about us.',
    });
    const { patch, value } = recordModelReply(
      run(),
      0,
      { content: 'Try ACME instead.', toolCalls: [], usage },
      settings,
    );
    assert.deepEqual(value, { kind: 'final' });
    assert.equal(patch.final_response, 'Let us talk about us.');
    assert.deepEqual(patch.messages?.at(-1), { role: 'assistant', content: 'Let us talk about us.' });
    assert.deepEqual(
      patch.guardrail_events?.map((e) => [e.guardrail, e.stage]),
      [['no_competitors', 'output']],
    );
  });

  const asked = (n: number): Array<{ id: string; name: string; arguments: string }> =>
    Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: 'crm_update_contact', arguments: '{}' }));

  it('drops the calls of a step that would take the conversation past its limits', () => {
    const long = { ...run(), messages: Array.from({ length: 990 }, () => run().messages[0]) };
    const { patch, value } = recordModelReply(
      long,
      0,
      { content: null, toolCalls: asked(5000), usage },
      runtimeSettings({}),
    );
    // 990 messages, the step's assistant message, 8 tool answers and room for the final answer: exactly the limit.
    assert.deepEqual(value, { kind: 'tools', toolCalls: 8 });
    const assistant = patch.messages?.[990];
    assert.ok(assistant?.role === 'assistant' && assistant.tool_calls?.length === 8);
    assert.equal((patch.messages?.length ?? 0) + 8 + 1, LIMITS.messagesPerConversation);
    assert.deepEqual(patch.tool_calls, [], 'no skipped call is recorded past the limit');
  });

  it('ends the run with the reply as its answer once the conversation holds no more calls', () => {
    const calls = Array.from({ length: LIMITS.toolCallsPerConversation }, (_, i) => ({
      tool_name: 'crm_update_contact',
      tool_args: { i },
    }));
    const full = { ...run(), tool_calls: calls };
    assert.equal(toolCallBudget(full), 0);
    const reply = { content: 'done as far as I can', toolCalls: asked(3), usage };
    const { patch, value } = recordModelReply(full, 7, reply, runtimeSettings({}));
    assert.deepEqual(value, { kind: 'final' });
    assert.equal(patch.final_response, 'done as far as I can');
    assert.equal(patch.tool_calls, undefined);
  });
});
