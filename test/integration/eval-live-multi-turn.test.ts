import assert from 'node:assert/strict';
import { linkMcpServer, publishedAgent } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { judgedSuite } from '../helpers/judged-suite';
import { startEverythingHttp } from '../helpers/mcp-peers';
import { lastUserMessage, multiTurnAgent, recordedSum, sentShape, toolText } from '../helpers/multi-turn-agent';
import { createTenant } from '../helpers/tenants';

describe('live eval runs of many turns', () => {
  // The scripted server plays the agent's model and the judge.
  const suite = judgedSuite(multiTurnAgent);

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

    const run = await api.waitForEnd('concierge', (await api.trigger('concierge', 'sessions', { mode: 'live' })).id);
    assert.equal(run.status, 'completed', run.error);
    const results = await api.results('concierge', run.id);
    const resultOf = (caseId: string): any => results.find((r) => r.case_id === caseId);

    // Each turn's model steps were sent the whole session so far, then the turn's message.
    const sent = (message: string): string[][] =>
      llm.requests.filter((req) => lastUserMessage(req.messages) === message).map((req) => sentShape(req.messages));
    const turn1 = ['system:You are concierge.', 'user:update contact c7'];
    assert.deepEqual(sent('update contact c7'), [
      turn1,
      [...turn1, 'assistant:crm_update_contact', 'tool:' + toolText()],
    ]);
    const turn2 = [...turn1, 'assistant:crm_update_contact', 'tool:' + toolText(), 'assistant:updated c7'];
    assert.deepEqual(sent('which contact was it?'), [[...turn2, 'user:which contact was it?']]);
    assert.deepEqual(sent('thanks'), [[...turn2, 'user:which contact was it?', 'assistant:it was c7', 'user:thanks']]);
    assert.deepEqual(run.summary.counts, { total: 2, passed: 1, failed: 1, error: 0 });

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
    // Per turn: position, status, passed, each applied criterion's score, then what was said.
    assert.deepEqual(
      scored.turns.map((t: any) => `${t.turn} ${t.status} ${t.passed} ${scoresOf(t.criteria)}`),
      [
        '0 scored true final_response_match=1 tool_trajectory_avg_score=1',
        '1 scored true final_response_match=1 tool_trajectory_avg_score=1',
        '2 scored false final_response_match=0 tool_trajectory_avg_score=1',
      ],
    );
    assert.deepEqual(
      scored.turns.map((t: any) => [t.user_message, t.actual_response]),
      conversation.turns.map((t: any) => [t.user_message, t.final_response]),
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

  it('ends a conversation at the turn that reaches the step limit, the later turns missing', async () => {
    const { platform, llm } = suite;
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-live-multi-turn-loop-key-0b3c', llm.baseUrl);
    await publishedAgent(api, 'looper', 'gpt-4o', { max_steps: 2 });
    await api.evalSet('looper', { name: 'loops' });
    await api.addCase('looper', 'loops', {
      name: 'loops',
      turns: [{ user_message: 'loop forever' }, { user_message: 'are you still there?' }],
    });
    const run = await api.waitForEnd('looper', (await api.trigger('looper', 'loops', { mode: 'live' })).id);
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('looper', run.id);
    const conversation = (await api.send('get', `/api/ai-agents/looper/runs/${result.conversation_id}`, 200)).data;
    assert.deepEqual(
      [conversation.stop_reason, conversation.turns, conversation.final_response],
      ['step_limit', null, ''],
    );
    assert.deepEqual([conversation.token_usage.model_calls, conversation.tool_calls.length], [2, 2]);
    assert.equal(llm.requests.filter((req) => lastUserMessage(req.messages) === 'are you still there?').length, 0);
    assert.deepEqual(
      result.turns.map((t: any) => [t.turn, t.status, t.passed]),
      [
        [0, 'scored', true],
        [1, 'missing', false],
      ],
    );
    assert.equal(result.first_failed_turn, 1);
  });

  it("replays each turn's calls from the same turn of the case's source conversation", async () => {
    const { platform, llm } = suite;
    const everything = await startEverythingHttp();
    try {
      const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
      await api.connect('openai', 'sk-live-multi-turn-replay-key-81fa', llm.baseUrl);
      const agent = await publishedAgent(api, 'recaller', 'gpt-4o');
      await linkMcpServer(api, agent.id, 'everything', everything.url);
      // Both turns of the recording called get-sum with the same arguments, and got different answers.
      const source = await api.importRun('recaller', {
        turns: [
          { user_message: 'start', tool_calls: [recordedSum('recorded in turn 0')], final_response: 'ready' },
          { user_message: 'recall the sum', tool_calls: [recordedSum('recorded in turn 1')], final_response: 'x' },
        ],
      });
      const set = await api.evalSet('recaller', { name: 'replays' });
      await api.promote('recaller', source.id, set.id);
      const run = await api.waitForEnd('recaller', (await api.trigger('recaller', 'replays', { mode: 'live' })).id);
      assert.equal(run.status, 'completed', run.error);
      const [result] = await api.results('recaller', run.id);
      const conversation = (await api.send('get', `/api/ai-agents/recaller/runs/${result.conversation_id}`, 200)).data;
      // The live agent calls get-sum in turn 1 only: it gets turn 1's recorded answer, not the first unused one.
      assert.deepEqual(
        conversation.turns.map((t: any) => [
          t.user_message,
          t.tool_calls.map((c: any) => [c.tool_name, c.replayed, c.result.content[0].text]),
          t.final_response,
        ]),
        [
          ['start', [], 'ok'],
          ['recall the sum', [['get-sum', true, 'recorded in turn 1']], 'the sum said: recorded in turn 1'],
        ],
      );
    } finally {
      await everything.stop();
    }
  });
});

// A turn's applied criteria as `key=score`, by key.
const scoresOf = (criteria: Record<string, { score: number }>): string =>
  Object.entries(criteria)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, c]) => `${key}=${c.score}`)
    .join(' ');
