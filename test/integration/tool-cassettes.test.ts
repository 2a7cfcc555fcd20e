import assert from 'node:assert/strict';
import { publishedAgent } from '../helpers/agent-api';
import { callListScript, sumCall } from '../helpers/call-list-agent';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const SECRET = 'cassette-secret-7f3a9c1e55';
const CALLS = JSON.stringify([sumCall(2, 3), { tool: 'echo', args: { message: `token ${SECRET}` } }]);

describe('cassettes: a live run records real tool responses, later runs replay them without the server', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let everything: EverythingServer;
  let api: ReturnType<typeof evalApi>;

  // Runs the set live; answers its one case's conversation and the tool answers the agent saw.
  const runOnce = async (set: string): Promise<{ conversation: any; answers: string[] }> => {
    const run = await api.waitForEnd('recorder', (await api.trigger('recorder', set, { mode: 'live' })).id, 120_000);
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('recorder', run.id);
    const conversation = (await api.send('get', `/api/ai-agents/recorder/runs/${result.conversation_id}`, 200)).data;
    return { conversation, answers: JSON.parse(conversation.final_response) };
  };

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    [llm, everything] = await Promise.all([startScriptedLlm(callListScript), startEverythingHttp()]);
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-cassette-openai-key-19c4', llm.baseUrl);
    const agent = await publishedAgent(api, 'recorder', 'gpt-4o');
    const server = await api.send('post', '/api/v1/mcp-servers', 201, {
      name: 'everything',
      transport: 'http',
      config: { url: everything.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: SECRET,
    });
    await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
    const link = await api.send('post', `/api/v1/agents/${agent.id}/mcp-servers`, 200, {
      mcp_server_id: server.id,
      sandbox_real_calls: true,
      record_cassette: true,
    });
    assert.deepEqual([link.sandbox_real_calls, link.record_cassette], [true, true]);
    for (const name of ['recorded', 'imported']) {
      await api.evalSet('recorder', { name });
      await api.addCase('recorder', name, { name: 'sum and echo', session_input: { message: CALLS } });
    }
  });
  after(async () => {
    await llm?.close();
    await everything?.stop();
    await platform?.close();
  });

  it('records every real response (secrets scrubbed, no headers), then replays it with the peer stopped', async () => {
    const live = await runOnce('recorded');
    assert.deepEqual(
      live.conversation.tool_calls.map((call: any) => [call.simulated, call.answered_by ?? null]),
      [
        [false, null],
        [false, null],
      ],
    );
    assert.match(live.answers[0], /\b5\b/);
    const cassette = await api.send('get', '/api/ai-agents/recorder/eval-sets/recorded/cassette', 200);
    assert.equal(cassette.format, 'assay.cassette/v1');
    assert.deepEqual(
      cassette.entries.map((entry: any) => [entry.tool_name, entry.server, entry.tool_args]),
      [
        ['get-sum', 'everything', { a: 2, b: 3 }],
        ['echo', 'everything', { message: `token ${SECRET}` }],
      ],
    );
    assert.deepEqual(cassette.entries[0].response, live.conversation.tool_calls[0].result);
    assert.ok(!JSON.stringify(cassette.entries.map((e: any) => e.response)).includes(SECRET), 'the echo was scrubbed');
    assert.ok(!/authorization|bearer/i.test(JSON.stringify(cassette)), 'no request header is recorded');

    await everything.stop();
    const replayed = await runOnce('recorded');
    assert.deepEqual(replayed.answers, live.answers);
    assert.deepEqual(
      replayed.conversation.tool_calls.map((call: any) => [call.simulated, call.answered_by]),
      [
        [true, 'cassette'],
        [true, 'cassette'],
      ],
    );
    const again = await api.send('get', '/api/ai-agents/recorder/eval-sets/recorded/cassette', 200);
    assert.equal(again.entries.length, 2, 'a replayed call is not recorded again');

    const imported = await api.send('post', '/api/ai-agents/recorder/eval-sets/imported/cassette', 200, cassette);
    assert.equal(imported.data.entries, 2);
    const fromImport = await runOnce('imported');
    assert.deepEqual(fromImport.answers, live.answers);
  });

  it('refuses an invalid cassette file naming the field and the limit, and keeps the cassette', async () => {
    const before = await api.send('get', '/api/ai-agents/recorder/eval-sets/imported/cassette', 200);
    const wrongFormat = await api.send('post', '/api/ai-agents/recorder/eval-sets/imported/cassette', 422, {
      format: 'vcr',
      entries: [],
    });
    assert.equal(wrongFormat.error.details[0].field, 'format');
    const large = { tool_name: 'echo', server: 'everything', tool_args: {}, response: { text: 'x'.repeat(70_000) } };
    const tooLarge = await api.send('post', '/api/ai-agents/recorder/eval-sets/imported/cassette', 422, {
      format: 'assay.cassette/v1',
      entries: [large],
    });
    assert.equal(tooLarge.error.details[0].field, 'entries.0.response');
    assert.match(tooLarge.error.details[0].message, /cassetteResponseBytes/);
    const after = await api.send('get', '/api/ai-agents/recorder/eval-sets/imported/cassette', 200);
    assert.deepEqual(after, before);
    const schema = await api.send('get', '/schemas/cassette.json', 200);
    assert.equal(schema.properties.format.const, 'assay.cassette/v1');
  });
});
