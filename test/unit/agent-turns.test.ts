import assert from 'node:assert/strict';
import { plannedTurns, recordedTurns, startTurn, unreplayable } from '../../activities/agent/agent-turns';
import type { AgentRun } from '../../db/tables/agent-run.table';
import { runtimeSettings } from '../../domain/agent/agent-settings';
import { LIMITS } from '../../domain/limits';
import { agentRunRow } from '../helpers/agent-run-row';

const call = (name: string) => ({ tool_name: name, tool_args: {}, result: name });

// A run whose first turn ("hi") made one call and answered "hello", with "again" planned next.
const afterFirstTurn = (): AgentRun => ({
  ...agentRunRow(),
  turns: plannedTurns(['hi', 'again'], undefined, false),
  messages: [
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'a', type: 'function', function: { name: 'x', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'a', content: '"x"' },
    { role: 'assistant', content: 'hello' },
  ],
  tool_calls: [call('x')],
  final_response: 'hello',
});

describe('the turns of an agent run', () => {
  it("starts the next turn after the whole session, keeping the last turn's reply, and records both turns", () => {
    const run = afterFirstTurn();
    const { patch, value } = startTurn(run, 1, runtimeSettings({}));
    assert.deepEqual(value, { blocked: false });
    const started = { ...run, ...patch, tool_calls: [...run.tool_calls, call('y')], final_response: 'bye' };
    assert.deepEqual(started.messages.slice(-2), [
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'again' },
    ]);
    assert.deepEqual(recordedTurns(started), [
      { user_message: 'hi', tool_calls: [call('x')], final_response: 'hello' },
      { user_message: 'again', tool_calls: [call('y')], final_response: 'bye' },
    ]);
    assert.deepEqual(startTurn(started, 1, runtimeSettings({})), { value: { blocked: false } });
  });

  it('answers a turn an input guardrail blocks with the safe reply, without a model step', () => {
    const settings = runtimeSettings({
      guardrails: [{ type: 'blocked_terms', terms: ['again'], action: 'block' }],
      safe_reply: 'I cannot help with that.',
    });
    const { patch, value } = startTurn(afterFirstTurn(), 1, settings);
    assert.deepEqual(value, { blocked: true });
    assert.equal(patch?.final_response, 'I cannot help with that.');
    assert.deepEqual(patch?.messages?.slice(-1), [{ role: 'assistant', content: 'I cannot help with that.' }]);
    assert.equal(patch?.guardrail_events?.length, 1);
  });

  it(`starts no turn once the conversation cannot hold a message and a reply (${LIMITS.messagesPerConversation})`, () => {
    const run = afterFirstTurn();
    const full = {
      ...run,
      messages: Array.from({ length: LIMITS.messagesPerConversation - 1 }, () => run.messages[3]),
    };
    assert.deepEqual(startTurn(full, 1, runtimeSettings({})), { value: { blocked: false, full: true } });
  });

  it("replays only the current turn's recorded calls when the recording had the case's turns", () => {
    const run = { ...afterFirstTurn(), replay_calls: [call('x'), call('y'), call('z')], replay_used: [0] };
    assert.deepEqual(unreplayable(run), [0]);
    const turns = plannedTurns(
      ['hi', 'again'],
      [
        [0, 1],
        [1, 3],
      ],
      false,
    );
    assert.deepEqual(unreplayable({ ...run, turns }), [0, 1, 2]);
    const second = turns.map((turn, index) => (index === 1 ? { ...turn, first_call: 1 } : turn));
    assert.deepEqual(unreplayable({ ...run, turns: second }), [0]);
  });

  it('records no turns for a run of one turn', () => {
    assert.equal(recordedTurns(afterFirstTurn()), null);
    assert.equal(recordedTurns(agentRunRow()), null);
  });
});
