import assert from 'node:assert/strict';
import { linkMcpServer, publishedAgent, userMessage } from '../helpers/agent-api';
import { callListScript, sumCall, textResult, type ListedCall } from '../helpers/call-list-agent';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const text = textResult;
const sum = sumCall;
const crm = (contact_id: string): ListedCall => ({ tool: 'crm_update_contact', args: { contact_id } });

const WEATHER = { temperature: 21, conditions: 'sunny', humidity: 40 };

// Agent requests follow the call list; a tool-response request for Paris is refused first (no structuredContent),
// then valid once told why; one for anywhere else never validates against the tool's output schema.
function script(req: ScriptedRequest): ScriptedReply {
  const asked = JSON.parse(userMessage(req.messages)) as { task?: string; arguments?: { location?: string } };
  if (asked.task !== 'simulate_tool_response') return callListScript(req);
  const told = 'previous_answer_refused_because' in asked;
  if (asked.arguments?.location === 'Paris' && told)
    return { content: JSON.stringify({ content: [{ type: 'text', text: 'sunny' }], structuredContent: WEATHER }) };
  const structure = asked.arguments?.location === 'Paris' ? {} : { structuredContent: { temperature: 'hot' } };
  return { content: JSON.stringify({ content: [{ type: 'text', text: 'no structure' }], ...structure }) };
}
const weather = (location: string): ListedCall => ({ tool: 'get-structured-content', args: { location } });

describe('tool mocks: live runs answer tool calls from the case and set mocks', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let everything: EverythingServer;
  let proxy: CountingProxy;
  let api: ReturnType<typeof evalApi>;

  // Runs the set live and answers its one case's result, conversation and the tool answers the agent saw.
  const runOnce = async (set: string): Promise<{ result: any; conversation: any; answers: string[] }> => {
    const run = await api.waitForEnd('mocked', (await api.trigger('mocked', set, { mode: 'live' })).id, 120_000);
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('mocked', run.id);
    const conversation = (await api.send('get', `/api/ai-agents/mocked/runs/${result.conversation_id}`, 200)).data;
    return { result, conversation, answers: JSON.parse(conversation.final_response) };
  };

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    [llm, everything] = await Promise.all([startScriptedLlm(script), startEverythingHttp()]);
    proxy = await startCountingProxy(everything.url);
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-mocks-openai-key-5b1d', llm.baseUrl);
    const agent = await publishedAgent(api, 'mocked', 'gpt-4o');
    await linkMcpServer(api, agent.id, 'everything', proxy.url);
  });
  after(async () => {
    await proxy?.close();
    await llm?.close();
    await everything?.stop();
    await platform?.close();
  });

  it('answers from the mocks in order (case before set), by matcher, counting times, and reports the rest', async () => {
    await api.evalSet('mocked', {
      name: 'ordered',
      tool_mocks: [
        { tool_name: 'get-sum', args: { a: { $number: { min: 100 } } }, response: text('set-big') },
        { tool_name: 'echo', response: text('never') },
      ],
    });
    await api.addCase('mocked', 'ordered', {
      name: 'calls',
      session_input: {
        message: JSON.stringify([sum(1, 2), sum(1, 5), sum(200, 1), sum(300, 1), crm('vip-7'), crm('plain')]),
      },
      tool_mocks: [
        { tool_name: 'get-sum', server: 'everything', args: { a: 1 }, response: text('first'), times: 1 },
        { tool_name: 'get-sum', args: { a: { $any: true } }, response: text('any'), times: 2 },
        { tool_name: 'crm_update_contact', args: { contact_id: { $regex: '^vip-' } }, response: text('vip') },
        { tool_name: 'get-sum', server: 'elsewhere', response: text('other server') },
      ],
    });
    const requestsBefore = proxy.requests();
    const { result, conversation, answers } = await runOnce('ordered');

    assert.deepEqual(answers.slice(0, 5), ['first', 'any', 'any', 'set-big', 'vip']);
    assert.equal(JSON.parse(answers[5]).status, 'updated', 'the unmatched call falls through to the sandbox');
    assert.deepEqual(
      conversation.tool_calls.map((call: any) => call.answered_by ?? null),
      ['mock', 'mock', 'mock', 'mock', 'mock', null],
    );
    assert.equal(proxy.requests() - requestsBefore, 0, 'no call reached the MCP server');
    const file = await api.send('get', '/api/ai-agents/mocked/eval-sets/ordered/export', 200);
    assert.deepEqual([file.tool_mocks.length, file.cases[0].tool_mocks.length], [2, 4], 'the set file keeps the mocks');
    assert.deepEqual(result.mocks, {
      unmatched_calls: [{ tool_name: 'crm_update_contact', tool_args: { contact_id: 'plain' } }],
      unconsumed: [
        { index: 3, tool_name: 'get-sum', server: 'elsewhere', used: 0 },
        { index: 5, tool_name: 'echo', used: 0 },
      ],
    });
  });

  it('fails an unmatched call with a clear tool error under mock_policy error', async () => {
    await api.evalSet('mocked', { name: 'strict', mock_policy: 'error' });
    await api.addCase('mocked', 'strict', {
      name: 'calls',
      session_input: { message: JSON.stringify([sum(1, 1), sum(2, 2)]) },
      tool_mocks: [{ tool_name: 'get-sum', args: { a: 1 }, response: text('one') }],
    });
    const requestsBefore = proxy.requests();
    const { result, conversation, answers } = await runOnce('strict');
    assert.equal(answers[0], 'one');
    assert.match(conversation.tool_calls[1].error, /no tool mock matched this call of get-sum.*mock_policy is error/);
    assert.equal(proxy.requests() - requestsBefore, 0);
    assert.deepEqual(result.mocks.unmatched_calls, [
      { tool_name: 'get-sum', server: 'everything', tool_args: { a: 2, b: 2 } },
    ]);
    assert.deepEqual(result.mocks.unconsumed, []);
  });

  it('replays the recording under mock_policy replay, and simulates under simulate', async () => {
    const recorded = await api.importRun('mocked', {
      session_input: { message: JSON.stringify([sum(4, 4)]) },
      tool_calls: [
        { tool_name: 'get-sum', server: 'everything', tool_args: { a: 4, b: 4 }, result: text('recorded 8') },
      ],
      final_response: 'done',
    });
    for (const policy of ['replay', 'simulate']) {
      const set = await api.evalSet('mocked', { name: `policy-${policy}`, mock_policy: policy });
      const promoted = await api.promote('mocked', recorded.id, set.id);
      await api.send('patch', `/api/ai-agents/mocked/eval-sets/${set.id}/cases/${promoted.id}`, 200, {
        expected_final_response: null,
      });
    }
    const replayed = await runOnce('policy-replay');
    assert.equal(replayed.answers[0], 'recorded 8');
    assert.equal(replayed.conversation.tool_calls[0].replayed, true);
    assert.equal(replayed.result.mocks, null, 'no mocks and the default policy: nothing to report');

    const simulated = await runOnce('policy-simulate');
    assert.match(simulated.answers[0], /the tool was not called/);
    assert.equal(simulated.conversation.tool_calls[0].replayed, false);
    assert.equal(simulated.result.mocks.unmatched_calls.length, 1);
  });

  it('asks a model for a response valid against the outputSchema when the set opts in, once again, then fails', async () => {
    await api.evalSet('mocked', { name: 'modelled', simulate_tool_responses: true });
    await api.addCase('mocked', 'modelled', {
      name: 'calls',
      session_input: { message: JSON.stringify([weather('Paris')]) },
    });
    const requestsBefore = llm.requests.length;
    const valid = await runOnce('modelled');
    assert.deepEqual(valid.answers, ['sunny']);
    const [call] = valid.conversation.tool_calls;
    assert.deepEqual([call.answered_by, call.result.structured_content, call.judge_usage.calls], ['model', WEATHER, 2]);
    assert.equal(valid.result.judge_usage.calls, 2, 'counted with the case as judge calls');
    const asked = llm.requests.slice(requestsBefore).map((r) => JSON.parse(userMessage(r.messages)));
    const refusal = asked.find((a) => a.previous_answer_refused_because)?.previous_answer_refused_because;
    assert.match(refusal, /structuredContent is missing/);

    await api.send(
      'patch',
      `/api/ai-agents/mocked/eval-sets/modelled/cases/${(await api.send('get', '/api/ai-agents/mocked/eval-sets/modelled/cases', 200)).data[0].id}`,
      200,
      {
        session_input: { message: JSON.stringify([weather('Nowhere')]) },
      },
    );
    const invalid = await runOnce('modelled');
    const [failed] = invalid.conversation.tool_calls;
    assert.match(
      failed.error,
      /simulated response of get-structured-content was refused twice: structuredContent does not validate/,
    );
    assert.equal(failed.judge_usage.calls, 2);
  });

  it('refuses invalid mocks with the field and the limit, and stores nothing', async () => {
    await api.evalSet('mocked', { name: 'invalid' });
    const bad = await api.send('post', '/api/ai-agents/mocked/eval-sets/invalid/cases', 422, {
      name: 'bad',
      session_input: { message: '[]' },
      tool_mocks: [{ tool_name: 'get-sum', args: { a: { $regex: '((' } }, response: text('x') }],
    });
    assert.equal(bad.error.code, 'validation_failed');
    assert.ok(
      bad.error.details.some((d: any) => d.field.startsWith('tool_mocks') && /RE2/.test(d.message)),
      JSON.stringify(bad.error.details),
    );
    const many = Array.from({ length: 101 }, () => ({ tool_name: 'echo', response: text('x') }));
    const tooMany = await api.send('patch', '/api/ai-agents/mocked/eval-sets/invalid', 422, { tool_mocks: many });
    assert.equal(tooMany.error.details[0].limit, 'toolMocksPerCase');
    const policy = await api.send('patch', '/api/ai-agents/mocked/eval-sets/invalid', 422, { mock_policy: 'maybe' });
    assert.equal(policy.error.details[0].field, 'mock_policy');
    const set = (await api.send('get', '/api/ai-agents/mocked/eval-sets/invalid', 200)).data;
    assert.deepEqual([set.tool_mocks, set.mock_policy], [null, 'replay']);
    const cases = await api.send('get', '/api/ai-agents/mocked/eval-sets/invalid/cases', 200);
    assert.equal(cases.data.length, 0);
  });
});
