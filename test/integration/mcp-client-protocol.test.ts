import assert from 'node:assert/strict';
import request from 'supertest';
import { publishedAgent, linkMcpServer, runAgent, toolMessages, userMessage } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { waitForFlowRunEnd } from '../helpers/flow-runs';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startProtocolMcpServer, type ProtocolMcpServer } from '../helpers/protocol-mcp-server';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

const MISMATCH = /^tool order_total_broken returned structuredContent that does not match its outputSchema: .*total/;

// The agent calls the tool the user names once, then answers.
function script(req: ScriptedRequest): ScriptedReply {
  if (toolMessages(req.messages) > 0) return { content: 'done' };
  return { toolCalls: [{ name: `orders__${userMessage(req.messages)}`, arguments: {} }] };
}

describe('MCP client protocol: elicitation answered unattended, structured results checked against outputSchema', function () {
  this.timeout(180_000);
  let platform: TestPlatform;
  let peer: ProtocolMcpServer;
  let llm: ScriptedLlm;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  let serverId: string;

  const runFlowNode = async (tool: string): Promise<any> => {
    const node = { id: 'call', kind: 'mcp.call_tool', mcp_server_id: serverId, tool_name: tool, parameters: {} };
    const flow = await api.send('post', '/api/v1/flows', 201, { name: `flow ${tool}`, nodes: [node] });
    const started = await api.send('post', `/api/v1/flows/${flow.id}/runs`, 201, { variables: {} });
    const get = (path: string) => request(platform.app).get(path).set(tenant.auth);
    const ended = await waitForFlowRunEnd(get, started.id, 60_000);
    return ended.body;
  };

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    [peer, llm] = await Promise.all([startProtocolMcpServer(), startScriptedLlm(script)]);
    tenant = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, tenant);
    await api.connect('openai', 'sk-protocol-key-7f3a9c', llm.baseUrl);
    const agent = await publishedAgent(api, 'orders-desk', 'gpt-4o');
    serverId = await linkMcpServer(api, agent.id, 'orders', peer.url);
  });
  after(async () => {
    await Promise.all([peer?.close(), llm?.close()]);
    await platform?.close();
  });

  it('answers an elicitation whose required fields all have defaults with those defaults, in a flow', async () => {
    const run = await runFlowNode('confirm_order');
    assert.equal(run.status, 'completed', JSON.stringify(run));
    const accepted = { action: 'accept', content: { quantity: 2, gift: false } };
    assert.deepEqual(peer.elicitations.at(-1), accepted);
    assert.deepEqual(run.nodes[0].output.content, [{ type: 'text', text: JSON.stringify(accepted) }]);
  });

  it('declines an elicitation with a required field that has no default, in a flow, without waiting', async () => {
    const run = await runFlowNode('ask_name');
    assert.equal(run.status, 'completed', JSON.stringify(run));
    assert.deepEqual(peer.elicitations.at(-1), { action: 'decline' });
  });

  it('fails a flow node whose structuredContent does not match the tool outputSchema, naming the mismatch', async () => {
    const good = await runFlowNode('order_total');
    assert.equal(good.status, 'completed', JSON.stringify(good));
    assert.deepEqual(good.nodes[0].output.structured_content, { total: 5 });
    const bad = await runFlowNode('order_total_broken');
    assert.equal(bad.status, 'failed', JSON.stringify(bad));
    assert.match(bad.nodes[0].error, MISMATCH);
    assert.deepEqual(bad.nodes[0].output.structured_content, { total: 'five' });
  });

  it('records the outputSchema mismatch as the call error of a live run, and the model is told', async () => {
    const conversation = await runAgent(api, 'orders-desk', 'order_total_broken');
    const [call] = conversation.tool_calls;
    assert.equal(call.tool_name, 'order_total_broken');
    assert.match(call.error, MISMATCH);
    const told = llm.requests.filter((req) => userMessage(req.messages) === 'order_total_broken').at(-1);
    assert.match(told?.messages.find((m) => m.role === 'tool')?.content ?? '', /does not match its outputSchema/);
    const fine = await runAgent(api, 'orders-desk', 'order_total');
    assert.equal(fine.tool_calls[0].error, undefined);
    assert.deepEqual(fine.tool_calls[0].result.structured_content, { total: 5 });
  });
});
