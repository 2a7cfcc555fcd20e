import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { linkMcpServer, publishedAgent, runAgent, toolMessages, userMessage } from '../helpers/agent-api';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

const CRM = { name: 'crm_update_contact', arguments: { contact_id: 'c-9', notes: 'asked for a sum' } };
const SEND = { name: 'messaging_send_message', arguments: { channel: 'sms', to: '+5511987654321', text: 'Sum ready' } };
const RECORDED_SUM = { name: 'everything__get-sum', arguments: { a: 2, b: 3 } };
const NEW_SUM = { name: 'everything__get-sum', arguments: { b: 1, a: 7 } };

// Production makes the recorded calls; the sandbox run repeats one of them (replayable) and adds a new one.
let phase: 'production' | 'sandbox' = 'production';
function script(req: ScriptedRequest): ScriptedReply {
  if (toolMessages(req.messages) > 0) return { content: 'All done.' };
  return { toolCalls: phase === 'production' ? [RECORDED_SUM, CRM, SEND] : [RECORDED_SUM, NEW_SUM, CRM, SEND] };
}

describe('agent runtime: the sandbox of live evaluation', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let everything: EverythingServer;
  let proxy: CountingProxy;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  let agentId: string;
  let serverId: string;
  let production: any;

  const effects = async (): Promise<{ contacts: number; messages: number }> => {
    const row = await sql<{ contacts: string; messages: string }>`
      SELECT (SELECT count(*) FROM crm_contacts WHERE workspace_id = ${tenant.workspaceId}) AS contacts,
             (SELECT count(*) FROM outbound_messages WHERE workspace_id = ${tenant.workspaceId}) AS messages`.execute(
      platform.runtime.db,
    );
    return { contacts: Number(row.rows[0].contacts), messages: Number(row.rows[0].messages) };
  };

  const liveRun = async (): Promise<{
    run: any;
    result: any;
    conversation: any;
    requests: number;
    effects: { contacts: number; messages: number };
  }> => {
    const requestsBefore = proxy.requests();
    const run = await api.waitForEnd('sandboxed', (await api.trigger('sandboxed', 'replays', { mode: 'live' })).id);
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('sandboxed', run.id);
    const conversation = (await api.send('get', `/api/ai-agents/sandboxed/runs/${result.conversation_id}`, 200)).data;
    return { run, result, conversation, requests: proxy.requests() - requestsBefore, effects: await effects() };
  };

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    [llm, everything] = await Promise.all([startScriptedLlm(script), startEverythingHttp()]);
    proxy = await startCountingProxy(everything.url);
    tenant = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, tenant);
    await api.connect('openai', 'sk-sandbox-openai-key-3e9a0c', llm.baseUrl);
    agentId = (await publishedAgent(api, 'sandboxed', 'gpt-4o')).id;
    serverId = await linkMcpServer(api, agentId, 'everything', proxy.url);
    phase = 'production';
    production = await runAgent(api, 'sandboxed', 'Add 2 and 3 for contact c-9');
    const set = await api.evalSet('sandboxed', { name: 'replays' });
    const promoted = await api.promote('sandboxed', production.id, set.id);
    // Trajectory and safety only: no judge is needed for this set.
    await api.send('patch', `/api/ai-agents/sandboxed/eval-sets/replays/cases/${promoted.id}`, 200, {
      expected_final_response: null,
    });
    phase = 'sandbox';
  });
  after(async () => {
    await proxy?.close();
    await llm?.close();
    await everything?.stop();
    await platform?.close();
  });

  it('reaches no MCP server and writes no CRM or messaging effect, replaying recorded responses that match', async () => {
    const before = await effects();
    assert.deepEqual(before, { contacts: 1, messages: 1 }, 'the production run had real effects');
    const { result, conversation, requests, effects: after } = await liveRun();
    assert.equal(requests, 0, 'no request reached the MCP server');
    assert.deepEqual(after, before, 'no CRM contact or message was written');

    assert.equal(conversation.source, 'sandbox');
    const [replayed, simulated, crm, send] = conversation.tool_calls;
    assert.deepEqual(
      [replayed.tool_name, replayed.server, replayed.tool_args, replayed.simulated, replayed.replayed],
      ['get-sum', 'everything', { a: 2, b: 3 }, true, true],
    );
    assert.deepEqual(replayed.result, production.tool_calls[0].result);
    assert.deepEqual(
      [simulated.tool_args, simulated.simulated, simulated.replayed, simulated.result.simulated],
      [{ a: 7, b: 1 }, true, false, true],
    );
    assert.deepEqual([crm.simulated, crm.result], [true, { status: 'updated', contact_id: 'c-9', simulated: true }]);
    assert.deepEqual([send.simulated, send.result.status, send.result.simulated], [true, 'sent', true]);
    // The model was answered with the recorded text, as in production.
    const followUp = llm.requests.filter((req) => toolMessages(req.messages) > 0).at(-1);
    assert.equal(followUp?.messages.find((m) => m.role === 'tool')?.content, 'The sum of 2 and 3 is 5.');

    assert.equal(result.conversation_id, conversation.id);
    assert.deepEqual(
      result.criteria.tool_trajectory_avg_score.detail.extra.map((c: any) => c.tool_args),
      [{ a: 7, b: 1 }],
    );
    assert.equal(result.criteria.tool_trajectory_avg_score.score, 0.75);
    assert.equal(result.criteria.safety.score, 1);
    assert.equal(userMessage(followUp?.messages ?? []), 'Add 2 and 3 for contact c-9');
  });

  it('calls a server for real in the sandbox only when the agent link opts in, still simulating built-in effects', async () => {
    const link = await api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 200, {
      mcp_server_id: serverId,
      enabled: true,
      sandbox_real_calls: true,
    });
    assert.deepEqual(link, {
      agent_id: agentId,
      mcp_server_id: serverId,
      enabled: true,
      sandbox_real_calls: true,
      record_cassette: false,
      auto_approve: false,
      tools: ['*'],
      tool_prefix: null,
      tool_overrides: {},
    });
    const callsBefore = proxy.methods().filter((m) => m === 'tools/call').length;
    const before = await effects();
    const { conversation, requests, effects: after } = await liveRun();
    assert.ok(requests > 0);
    assert.equal(proxy.methods().filter((m) => m === 'tools/call').length - callsBefore, 2);
    const [first, second, crm] = conversation.tool_calls;
    assert.deepEqual([first.simulated, first.replayed, second.simulated], [false, false, false]);
    assert.deepEqual(second.result.content, [{ type: 'text', text: 'The sum of 7 and 1 is 8.' }]);
    assert.equal(crm.simulated, true);
    assert.deepEqual(after, before);
    const relinked = await api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 200, {
      mcp_server_id: serverId,
      enabled: true,
    });
    assert.equal(relinked.sandbox_real_calls, true, 'a link update without the flag keeps it');
  });
});
