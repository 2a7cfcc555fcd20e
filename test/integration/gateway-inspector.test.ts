import assert from 'node:assert/strict';
import { evalApi } from '../helpers/eval-api';
import { serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness, type Harness } from '../helpers/harness';
import { inspectorCli } from '../helpers/inspector-cli';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

describe('MCP gateway through a third-party client: the MCP Inspector CLI with a service token', function () {
  this.timeout(180_000);
  let h: Harness;
  let platform: TestPlatform;
  let tenant: Tenant;
  let gateway: ServedGateway;
  let everything: EverythingServer;
  let url: string;
  let token: string;

  before(async () => {
    h = await harness();
    everything = await startEverythingHttp();
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    tenant = await createTenant(h.db, 'owner');
    const api = evalApi(platform.app, tenant);
    const agent = await api.send('post', '/api/ai-agents', 201, {
      name: 'inspected',
      model: 'gpt-4o',
      instructions: 'x',
    });
    const server = await api.send('post', '/api/v1/mcp-servers', 201, {
      name: 'everything',
      transport: 'http',
      config: { url: everything.url },
    });
    await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
    const link = await api.send('post', `/api/v1/agents/${agent.data.id}/mcp-servers`, 200, {
      mcp_server_id: server.id,
      tools: ['get-sum', 'echo'],
    });
    assert.deepEqual(link.tools, ['get-sum', 'echo']);
    token = await serviceToken(platform, tenant);
    gateway = await serveGateway(platform);
    url = gateway.url(agent.data.id);
  });
  after(async () => {
    await gateway?.close();
    await platform?.close();
    await everything?.stop();
  });

  it('lists the allowed tools and calls one', async () => {
    const listed = await inspectorCli(url, token, ['--method', 'tools/list']);
    assert.equal(listed.code, 0, listed.stderr);
    const names = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['everything__echo', 'everything__get-sum']);
    const called = await inspectorCli(url, token, [
      '--method',
      'tools/call',
      '--tool-name',
      'everything__get-sum',
      '--tool-arg',
      'a=19',
      'b=23',
    ]);
    assert.equal(called.code, 0, called.stderr);
    const result = JSON.parse(called.stdout) as { content: Array<{ text: string }>; isError?: boolean };
    assert.notEqual(result.isError, true);
    assert.match(result.content[0].text, /\b42\b/);
  });

  it('refuses a tool outside the allowlist with a message saying so', async () => {
    const refused = await inspectorCli(url, token, ['--method', 'tools/call', '--tool-name', 'everything__get-env']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stdout + refused.stderr, /everything__get-env is not in the allowlist/);
  });

  it("refuses another workspace's token (the agent reads as missing) and a viewer (no gateway:use)", async () => {
    const other = await createTenant(h.db, 'owner');
    const foreign = await serviceToken(platform, other);
    const viewer = await serviceToken(platform, tenant, 'viewer');
    for (const [bearer, status, pattern] of [
      [foreign, 404, /agent not found/],
      [viewer, 403, /missing permission gateway:use/],
    ] as const) {
      const run = await inspectorCli(url, bearer, ['--method', 'tools/list']);
      assert.notEqual(run.code, 0);
      assert.equal((JSON.parse(run.stdout || '{}') as { tools?: unknown }).tools, undefined);
      // What the Inspector was answered, read directly: the status and the error body.
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${bearer}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
        }),
      });
      assert.equal(res.status, status);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, pattern);
    }
  });
});
