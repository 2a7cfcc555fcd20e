import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../domain/limits';
import { evalApi } from '../helpers/eval-api';
import { gatewayClient, serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness, type Harness } from '../helpers/harness';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const toolNames = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name);
const text = (result: Record<string, unknown>): string =>
  ((result.content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('');

describe('MCP gateway: aggregation of linked servers, prefixes, allowlist and list_changed (SDK client)', () => {
  let h: Harness;
  let platform: TestPlatform;
  let tenant: Tenant;
  let gateway: ServedGateway;
  let everythingA: EverythingServer;
  let everythingB: EverythingServer;
  let api: ReturnType<typeof evalApi>;
  let agentId: string;
  let token: string;
  const servers: Record<string, string> = {};
  const clients: Client[] = [];

  const connect = async (): Promise<Client> => {
    const client = await gatewayClient(gateway.url(agentId), token);
    clients.push(client);
    return client;
  };
  const link = (server: string, body: Record<string, unknown> = {}) =>
    api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 200, { mcp_server_id: servers[server], ...body });

  before(async () => {
    h = await harness();
    [everythingA, everythingB] = await Promise.all([startEverythingHttp(), startEverythingHttp()]);
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    tenant = await createTenant(h.db, 'owner');
    api = evalApi(platform.app, tenant);
    const agent = await api.send('post', '/api/ai-agents', 201, {
      name: 'gw-agent',
      model: 'gpt-4o',
      instructions: 'x',
    });
    agentId = agent.data.id;
    for (const [name, peer] of [
      ['alpha', everythingA],
      ['beta', everythingB],
    ] as const) {
      const server = await api.send('post', '/api/v1/mcp-servers', 201, {
        name,
        transport: 'http',
        config: { url: peer.url },
      });
      await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
      servers[name] = server.id;
    }
    await link('alpha');
    await link('beta');
    token = await serviceToken(platform, tenant);
    gateway = await serveGateway(platform, { GATEWAY_LIST_POLL_MS: 200 });
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await gateway?.close();
    await platform?.close();
    await everythingA?.stop();
    await everythingB?.stop();
  });

  it("lists both servers' tools under their default prefixes and forwards a call to the right one", async () => {
    const client = await connect();
    const names = await toolNames(client);
    assert.ok(names.includes('alpha__get-sum'), names.join(', '));
    assert.ok(names.includes('beta__get-sum'), names.join(', '));
    assert.ok(names.every((n) => n.startsWith('alpha__') || n.startsWith('beta__')));
    const result = await client.callTool({ name: 'beta__get-sum', arguments: { a: 2, b: 40 } });
    assert.equal(result.isError ?? false, false);
    assert.match(text(result), /\b42\b/);
  });

  it('sends tools/list_changed when a link is disabled, and the list no longer has its tools', async () => {
    const client = await connect();
    let changed!: () => void;
    const notified = new Promise<void>((resolve) => (changed = resolve));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => changed());
    assert.ok((await toolNames(client)).includes('beta__get-sum'));
    await link('beta', { enabled: false });
    const deadline = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('no list_changed in 20 s')), 20_000).unref(),
    );
    await Promise.race([notified, deadline]);
    const names = await toolNames(client);
    assert.ok(names.includes('alpha__get-sum'));
    assert.equal(names.filter((n) => n.startsWith('beta__')).length, 0);
    await link('beta', { enabled: true });
  });

  it('exposes a link\'s tool_prefix ("" allowed), its allowlist and read_only override; GET shows the policy', async () => {
    await link('alpha', { tool_prefix: '', tools: ['get-sum', 'echo'], tool_overrides: { echo: { read_only: true } } });
    await link('beta', { tool_prefix: 'b.' });
    const links = await api.send('get', `/api/v1/agents/${agentId}/mcp-servers`, 200);
    const alpha = links.find((l: { mcp_server_id: string }) => l.mcp_server_id === servers.alpha);
    assert.deepEqual(
      { tools: alpha.tools, tool_prefix: alpha.tool_prefix, tool_overrides: alpha.tool_overrides },
      { tools: ['get-sum', 'echo'], tool_prefix: '', tool_overrides: { echo: { read_only: true } } },
    );
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.deepEqual(names.filter((n) => !n.startsWith('b.')).sort(), ['echo', 'get-sum']);
    assert.ok(names.includes('b.get-sum'));
    assert.equal(tools.find((t) => t.name === 'echo')?.annotations?.readOnlyHint, true);
    assert.match(text(await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 1 } })), /\b2\b/);
    await link('alpha', { tool_prefix: null, tools: ['*'], tool_overrides: {} });
    await link('beta', { tool_prefix: null });
  });

  it('refuses a bad link policy with 422 naming the field, and changes nothing', async () => {
    for (const [body, field] of [
      [{ tool_prefix: 'has space' }, 'tool_prefix'],
      [{ tools: [] }, 'tools'],
      [{ tool_overrides: { echo: { timeout_ms: 10_000_000 } } }, 'tool_overrides.echo.timeout_ms'],
      [{ tool_overrides: { echo: { retries: 3 } } }, 'tool_overrides.echo'],
    ] as const) {
      const res = await api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 422, {
        mcp_server_id: servers.alpha,
        ...body,
      });
      assert.equal(res.error.code, 'validation_failed');
      assert.ok(
        res.error.details.some((d: { field: string }) => d.field === field),
        JSON.stringify(res.error.details),
      );
    }
    const links = await api.send('get', `/api/v1/agents/${agentId}/mcp-servers`, 200);
    const alpha = links.find((l: { mcp_server_id: string }) => l.mcp_server_id === servers.alpha);
    assert.deepEqual([alpha.tools, alpha.tool_prefix, alpha.tool_overrides], [['*'], null, {}]);
  });

  it("answers an unknown tool by saying the gateway's tools are named <server>__<tool>", async () => {
    const client = await connect();
    await assert.rejects(
      client.callTool({ name: 'no-such-tool', arguments: {} }),
      /unknown tool no-such-tool: this gateway names each tool <server>__<tool>/,
    );
  });

  it('refuses arguments over gatewayArgumentBytes with a JSON-RPC error naming the limit', async () => {
    const client = await connect();
    const message = 'x'.repeat(LIMITS.gatewayArgumentBytes);
    await assert.rejects(
      client.callTool({ name: 'alpha__echo', arguments: { message } }),
      /limit gatewayArgumentBytes/,
    );
  });
});
