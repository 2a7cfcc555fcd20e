import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { waitFor } from '../../lib/embedded/process-utils';
import { evalApi } from '../helpers/eval-api';
import { serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness, type Harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

describe('Gateway recording: an SDK client session through the gateway becomes a conversation an eval run scores', () => {
  const secret = 'gateway-upstream-token-5c1e8f0a92b7d346';
  let h: Harness;
  let platform: TestPlatform;
  let everything: EverythingServer;
  let gateway: ServedGateway;
  let token: string;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  const responses: string[] = [];

  // One MCP session: connect, call each tool in turn, end the session (DELETE), as an external agent would.
  const session = async (calls: Array<[string, Record<string, unknown>]>): Promise<string> => {
    const client = new Client({ name: 'outside-agent', version: '1.0.0' }, { capabilities: {} });
    const headers = { Authorization: `Bearer ${token}` };
    const transport = new StreamableHTTPClientTransport(new URL(gateway.url('outside')), { requestInit: { headers } });
    await client.connect(transport);
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      responses.push(JSON.stringify(result));
      assert.notEqual(result.isError, true, JSON.stringify(result));
    }
    const id = transport.sessionId;
    assert.ok(id, 'the gateway gave the session an id');
    await transport.terminateSession();
    await client.close();
    return id;
  };
  // The recording is written after each answer: poll for it with a deadline.
  const recorded = async (mcpSessionId: string, calls: number): Promise<any> => {
    let found: any;
    await waitFor(
      `the recording of session ${mcpSessionId}`,
      async () => {
        const list = (await api.send('get', '/api/ai-agents/outside/runs?source=gateway&limit=500', 200)).data;
        found = list.find((c: any) => c.mcp_session_id === mcpSessionId);
        return found?.tool_calls.length === calls && found.latency_ms !== null;
      },
      30_000,
    );
    responses.push(JSON.stringify(found));
    return found;
  };

  before(async () => {
    h = await harness();
    everything = await startEverythingHttp();
    platform = await createTestPlatform(h, { vault: 'openbao', env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    tenant = await createTenant(h.db, 'owner');
    api = evalApi(platform.app, tenant);
    const agent = await api.send('post', '/api/ai-agents', 201, {
      name: 'outside',
      model: 'gpt-4o',
      instructions: 'An agent that runs elsewhere.',
      gateway_capture: 'full',
    });
    const server = await api.send('post', '/api/v1/mcp-servers', 201, {
      name: 'everything',
      transport: 'http',
      config: { url: everything.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: secret,
    });
    await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
    await api.send('post', `/api/v1/agents/${agent.data.id}/mcp-servers`, 200, {
      mcp_server_id: server.id,
      enabled: true,
    });
    gateway = await serveGateway(platform);
    // A service token in the client's config: the common case.
    token = await serviceToken(platform, tenant);
  });
  after(async () => {
    await gateway?.close();
    await platform?.close();
    await everything?.stop();
  });

  let fullSession: any;

  it('records a session under full capture: each call with its arguments and result, in order', async () => {
    const id = await session([
      ['everything__echo', { message: 'sum please' }],
      ['everything__get-sum', { a: 2, b: 3 }],
    ]);
    fullSession = await recorded(id, 2);
    assert.equal(fullSession.source, 'gateway');
    assert.deepEqual(
      fullSession.tool_calls.map((c: any) => [c.tool_name, c.server, c.exposed_name, c.tool_args]),
      [
        ['echo', 'everything', 'everything__echo', { message: 'sum please' }],
        ['get-sum', 'everything', 'everything__get-sum', { a: 2, b: 3 }],
      ],
    );
    assert.match(JSON.stringify(fullSession.tool_calls[1].result), /5/);
    assert.ok(fullSession.tool_calls.every((c: any) => c.result_bytes > 0 && c.latency_ms >= 0));
  });

  it('records only names, sizes, latency and outcome under metadata capture', async () => {
    await api.send('patch', '/api/ai-agents/outside', 200, { gateway_capture: 'metadata' });
    const row = await recorded(await session([['everything__get-sum', { a: 40, b: 2 }]]), 1);
    const [only] = row.tool_calls;
    assert.deepEqual([only.tool_name, only.tool_args, only.result], ['get-sum', {}, undefined]);
    assert.ok(only.argument_bytes > 0 && only.result_bytes > 0);
  });

  it('promotes the recorded session to a case that an offline run scores by its trajectory', async () => {
    const set = await api.evalSet('outside', { name: 'from-the-gateway' });
    const promoted = await api.promote('outside', fullSession.id, set.id);
    const queued = await api.trigger('outside', set.id);
    const run = await api.waitForEnd('outside', queued.id);
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('outside', run.id);
    assert.equal(result.case_id, promoted.id);
    assert.equal(result.status, 'passed');
    assert.equal(result.criteria.tool_trajectory_avg_score.score, 1);
  });

  it("never records or logs the upstream server's secret or the client's token", () => {
    assert.ok(responses.every((text) => !text.includes(secret) && !text.includes(token)));
    assertLogsClean(platform.logs, [secret, token]);
  });
});
