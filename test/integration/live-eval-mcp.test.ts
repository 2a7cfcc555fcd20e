import assert from 'node:assert/strict';
import { linkMcpServer, publishedAgent, toolMessages, userMessage } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

// "sum a b": the model calls the offered get-sum tool (by whatever name it was offered), then answers.
function script(req: ScriptedRequest): ScriptedReply {
  const sum = /^sum (\d+) (\d+)$/.exec(userMessage(req.messages));
  if (!sum || toolMessages(req.messages) > 0) return { content: 'done' };
  const offered = (req.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
  const name = offered.find((n) => n.endsWith('get-sum'));
  return { toolCalls: [{ name: name ?? 'missing', arguments: { a: Number(sum[1]), b: Number(sum[2]) } }] };
}

describe('live eval with an MCP tool: trajectories written from the tools list', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let everything: EverythingServer;

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    [llm, everything] = await Promise.all([startScriptedLlm(script), startEverythingHttp()]);
  });
  after(async () => {
    await llm?.close();
    await everything?.stop();
    await platform?.close();
  });

  it('records the MCP call by its listed name and server, and passes a case whose trajectory came from GET …/tools', async () => {
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-live-mcp-openai-key-3e9a', llm.baseUrl);
    const agent = await publishedAgent(api, 'adder', 'gpt-4o');
    const serverId = await linkMcpServer(api, agent.id, 'everything', everything.url, { sandbox_real_calls: true });

    // The expected call is built from what a user sees: the stored tools list and the server's name.
    const server = await api.send('get', `/api/v1/mcp-servers/${serverId}`, 200);
    const tools = await api.send('get', `/api/v1/mcp-servers/${serverId}/tools?limit=200`, 200);
    const listed = tools.find((tool: { name: string }) => tool.name === 'get-sum');
    assert.ok(listed, `get-sum is listed: ${tools.map((t: { name: string }) => t.name).join(', ')}`);
    const expected = { tool_name: listed.name, server: server.name, tool_args: { a: 2, b: 3 } };

    await api.evalSet('adder', { name: 'sums' });
    await api.addCase('adder', 'sums', {
      name: 'listed',
      session_input: { message: 'sum 2 3' },
      expected_trajectory: [expected],
    });
    await api.addCase('adder', 'sums', {
      name: 'no server',
      session_input: { message: 'sum 2 3' },
      expected_trajectory: [{ tool_name: listed.name, tool_args: { a: 2, b: 3 } }],
    });
    await api.addCase('adder', 'sums', {
      name: 'other server',
      session_input: { message: 'sum 2 3' },
      expected_trajectory: [{ ...expected, server: 'elsewhere' }],
    });
    const run = await api.waitForEnd('adder', (await api.trigger('adder', 'sums', { mode: 'live' })).id, 120_000);
    assert.equal(run.status, 'completed', run.error);
    const byName = Object.fromEntries((await api.results('adder', run.id)).map((r) => [r.case_name, r]));

    const listedCase = byName['listed'];
    assert.equal(listedCase.status, 'passed');
    assert.equal(listedCase.criteria.tool_trajectory_avg_score.score, 1);
    assert.deepEqual(listedCase.criteria.tool_trajectory_avg_score.detail.matched, [
      { expected_index: 0, actual_index: 0, ...expected, args_score: 1 },
    ]);
    const conversation = (await api.send('get', `/api/ai-agents/adder/runs/${listedCase.conversation_id}`, 200)).data;
    const [call] = conversation.tool_calls;
    assert.deepEqual(
      [call.tool_name, call.server, call.tool_args, call.simulated],
      ['get-sum', 'everything', { a: 2, b: 3 }, false],
    );
    assert.deepEqual(
      call.result.content,
      [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }],
      'the real peer answered',
    );
    // The model itself was offered (and called) the unique prefixed name; only the record uses the listed one.
    assert.equal(conversation.messages[1].tool_calls[0].name, 'everything__get-sum');

    assert.equal(byName['no server'].status, 'passed', 'an expected call without server matches any server');
    const other = byName['other server'];
    assert.equal(other.status, 'failed', 'a server that differs fails the call');
    assert.equal(other.criteria.tool_trajectory_avg_score.score, 0);
    assert.deepEqual(
      other.criteria.tool_trajectory_avg_score.detail.extra.map((c: { server: string }) => c.server),
      ['everything'],
    );
  });
});
