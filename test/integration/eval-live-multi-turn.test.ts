import assert from 'node:assert/strict';
import { publishedAgent } from '../helpers/agent-api';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { judgedSuite } from '../helpers/judged-suite';
import type { ScriptedReply, ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

type Sent = ScriptedRequest['messages'];

const lastUserMessage = (messages: Sent): string => messages.filter((m) => m.role === 'user').pop()?.content ?? '';

// The judge says two replies match when they are equal.
const judge = judgeReplies({});

// Plays the agent's model, answering on the turn's (last) user message: turn 1 updates a contact first, turn 2
// answers from the session so far; judge requests go to the judge.
function script(req: ScriptedRequest): ScriptedReply {
  if (req.body.tools === undefined) return judge(req);
  const message = lastUserMessage(req.messages);
  if (message === 'update contact c7')
    return req.messages[req.messages.length - 1].role === 'tool'
      ? { content: 'updated c7' }
      : { toolCalls: [{ id: 'call-c7', name: 'crm_update_contact', arguments: { contact_id: 'c7', name: 'Ada' } }] };
  if (message === 'which contact was it?') {
    const updated = req.messages.some((m) => m.tool_calls?.some((call) => call.function.arguments.includes('c7')));
    return { content: updated ? 'it was c7' : 'I do not know' };
  }
  if (message === 'thanks') return { content: `you are welcome (${req.messages.length} messages so far)` };
  return { content: 'ok' };
}

// What a request sent, as role and text (an assistant's tool calls by name).
const shape = (messages: Sent): string[] =>
  messages.map((m) =>
    m.tool_calls?.length ? `assistant:${m.tool_calls.map((c) => c.function.name).join(',')}` : `${m.role}:${m.content}`,
  );

describe('live eval runs of many turns', () => {
  // The scripted server plays the agent's model (no case here needs a judge).
  const suite = judgedSuite(script);

  it('runs a case turn by turn in one session, each turn seeing the earlier ones, and records each turn', async () => {
    const { platform, llm } = suite;
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-live-multi-turn-openai-key-5d2e', llm.baseUrl);
    await publishedAgent(api, 'concierge', 'gpt-4o');
    await api.evalSet('concierge', { name: 'sessions' });
    const multi = await api.addCase('concierge', 'sessions', {
      name: 'three turns',
      state: { tier: 'gold' },
      turns: [
        {
          user_message: 'update contact c7',
          expected_trajectory: [{ tool_name: 'crm_update_contact', tool_args: { contact_id: 'c7', name: 'Ada' } }],
          expected_response: 'updated c7',
        },
        { user_message: 'which contact was it?', expected_trajectory: [], expected_response: 'it was c7' },
        { user_message: 'thanks', expected_trajectory: [], expected_response: 'goodbye' },
      ],
    });
    const single = await api.addCase('concierge', 'sessions', {
      name: 'one turn',
      session_input: { message: 'hello' },
      expected_trajectory: [],
    });
    const scenario = await api.addCase('concierge', 'sessions', {
      name: 'scenario',
      conversation_scenario: { starting_prompt: 'scenario prompt nobody runs', conversation_plan: 'ask twice' },
    });

    const run = await api.waitForEnd('concierge', (await api.trigger('concierge', 'sessions', { mode: 'live' })).id);
    assert.equal(run.status, 'completed', run.error);
    const results = await api.results('concierge', run.id);
    const resultOf = (caseId: string): any => results.find((r) => r.case_id === caseId);

    // Each turn's model steps were sent the whole session so far, then the turn's message.
    const sent = (message: string): string[][] =>
      llm.requests.filter((req) => lastUserMessage(req.messages) === message).map((req) => shape(req.messages));
    const turn1 = ['system:You are concierge.', 'user:update contact c7'];
    assert.deepEqual(sent('update contact c7'), [
      turn1,
      [...turn1, 'assistant:crm_update_contact', 'tool:' + toolText()],
    ]);
    const turn2 = [...turn1, 'assistant:crm_update_contact', 'tool:' + toolText(), 'assistant:updated c7'];
    assert.deepEqual(sent('which contact was it?'), [[...turn2, 'user:which contact was it?']]);
    assert.deepEqual(sent('thanks'), [[...turn2, 'user:which contact was it?', 'assistant:it was c7', 'user:thanks']]);
    assert.equal(sent('scenario prompt nobody runs').length, 0, 'the agent did not run the conversation scenario');
    const scenarioRuns = await platform.runtime.db
      .selectFrom('agent_runs')
      .select('id')
      .where('eval_case_id', '=', scenario.id)
      .execute();
    assert.deepEqual([scenarioRuns.length, resultOf(scenario.id).conversation_id], [0, null]);

    const conversation = (
      await api.send('get', `/api/ai-agents/concierge/runs/${resultOf(multi.id).conversation_id}`, 200)
    ).data;
    assert.equal(conversation.source, 'sandbox');
    assert.equal(conversation.stop_reason, 'completed');
    assert.deepEqual(conversation.session_input, { message: 'update contact c7', state: { tier: 'gold' } });
    const c7 = { tool_name: 'crm_update_contact', tool_args: { contact_id: 'c7', name: 'Ada' } };
    assert.deepEqual(
      conversation.turns.map((t: any) => ({
        user_message: t.user_message,
        calls: t.tool_calls.map((c: any) => ({
          tool_name: c.tool_name,
          tool_args: c.tool_args,
          simulated: c.simulated,
        })),
        final_response: t.final_response,
      })),
      [
        { user_message: 'update contact c7', calls: [{ ...c7, simulated: true }], final_response: 'updated c7' },
        { user_message: 'which contact was it?', calls: [], final_response: 'it was c7' },
        { user_message: 'thanks', calls: [], final_response: 'you are welcome (8 messages so far)' },
      ],
    );
    assert.deepEqual(
      conversation.tool_calls.map((c: any) => [c.tool_name, c.tool_args]),
      [[c7.tool_name, c7.tool_args]],
    );
    assert.equal(conversation.final_response, 'you are welcome (8 messages so far)');
    assert.equal(conversation.messages.filter((m: any) => m.role === 'user').length, 3);
    assert.equal(conversation.token_usage.model_calls, 4);

    // Scored turn by turn against the turns the agent gave: the third reply is not the expected one.
    const scored = resultOf(multi.id);
    assert.equal(scored.status, 'failed');
    assert.equal(scored.first_failed_turn, 2);
    assert.deepEqual(
      scored.turns.map((t: any) => [
        t.turn,
        t.status,
        t.user_message,
        t.actual_response,
        t.passed,
        Object.fromEntries(Object.entries(t.criteria).map(([key, c]: [string, any]) => [key, c.score])),
      ]),
      [
        [
          0,
          'scored',
          'update contact c7',
          'updated c7',
          true,
          { tool_trajectory_avg_score: 1, final_response_match: 1 },
        ],
        [
          1,
          'scored',
          'which contact was it?',
          'it was c7',
          true,
          { tool_trajectory_avg_score: 1, final_response_match: 1 },
        ],
        [
          2,
          'scored',
          'thanks',
          'you are welcome (8 messages so far)',
          false,
          { tool_trajectory_avg_score: 1, final_response_match: 0 },
        ],
      ],
    );
    assert.equal(scored.criteria.tool_trajectory_avg_score.score, 1);
    assert.ok(Math.abs(scored.criteria.final_response_match.score - 2 / 3) < 1e-9);

    // A one-turn case runs as before: one model call, a conversation without turns.
    const one = (await api.send('get', `/api/ai-agents/concierge/runs/${resultOf(single.id).conversation_id}`, 200))
      .data;
    assert.equal(one.turns, null);
    assert.deepEqual([one.final_response, one.token_usage.model_calls], ['ok', 1]);
    assert.equal(resultOf(single.id).status, 'passed');
  });
});

// The tool message the sandbox answers crm_update_contact with for c7.
function toolText(): string {
  return JSON.stringify({ status: 'updated', contact_id: 'c7', simulated: true });
}
