import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { evalApi } from '../helpers/eval-api';
import { gatewayClient, serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness } from '../helpers/harness';
import { startHostileMcpPeer, type HostileMcpPeer } from '../helpers/hostile-mcp-peer';
import { assertLogsClean } from '../helpers/logs';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant } from '../helpers/tenants';

/**
 * Issue 31 §2: a hostile upstream, registered with `Authorization: Bearer <secret>`, echoes the header into everything
 * it sends. A client through the gateway (SDK client over HTTP) must never see the secret, in any answer, error,
 * notification or request, and nothing relayed may be larger than `gatewayResultBytes`.
 */
describe('the gateway relays nothing of an upstream secret and nothing over gatewayResultBytes', () => {
  const secret = 'hostile-upstream-token-3b9d0e7c41a2f865';
  let platform: TestPlatform;
  let hostile: HostileMcpPeer;
  let gateway: ServedGateway;
  let client: Client;
  let token: string;
  let agentId: string;
  const logs: unknown[] = [];
  const updates: unknown[] = [];
  const requests: unknown[] = [];

  // What the client saw: never the secret, and the scrubbed header where the upstream echoed it.
  const clean = (what: string, seen: unknown, marker = 'Bearer [secret]'): void => {
    const text = JSON.stringify(seen) ?? '';
    assert.ok(!text.includes(secret), `${what} carries the upstream's secret: ${text.slice(0, 300)}`);
    assert.ok(text.includes(marker), `${what} should carry ${marker}: ${text.slice(0, 300)}`);
  };
  const failure = async (call: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> => {
    const error = await call.then(
      () => assert.fail('answered instead of failing'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof McpError, String(error));
    return { code: error.code, message: error.message, data: error.data };
  };
  const overBound = (what: string, message: string): void => {
    assert.match(message, /limit gatewayResultBytes/, `${what}: ${message.slice(0, 200)}`);
    assert.ok(message.length < 1000, `${what}: a message of ${message.length} characters`);
  };

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    hostile = await startHostileMcpPeer();
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    const agent = (
      await api.send('post', '/api/ai-agents', 201, { name: 'relayed', model: 'gpt-4o', instructions: 'x' })
    ).data;
    const server = await api.send('post', '/api/v1/mcp-servers', 201, {
      name: 'hostile',
      transport: 'http',
      config: { url: hostile.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: secret,
    });
    await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
    await api.send('post', `/api/v1/agents/${agent.id}/mcp-servers`, 200, { mcp_server_id: server.id, enabled: true });
    gateway = await serveGateway(platform);
    token = await serviceToken(platform, tenant);
    agentId = agent.id;
    client = await gatewayClient(gateway.url(agent.id), token, { sampling: {}, elicitation: {} });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params));
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      requests.push(request.params);
      return { model: 'test', role: 'assistant', content: { type: 'text', text: 'ok' } };
    });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      requests.push(request.params);
      return { action: 'decline' };
    });
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await gateway?.close();
    await hostile?.close();
    await platform?.close();
  });

  it('replaces the secret in resources, templates, prompts, completions and tool results', async () => {
    clean('resources/list', await client.listResources());
    clean('resources/templates/list', await client.listResourceTemplates());
    clean('resources/read', await client.readResource({ uri: 'hostile://echo' }));
    clean('prompts/list', await client.listPrompts());
    clean('prompts/get', await client.getPrompt({ name: 'hostile__echo' }));
    const ref = { type: 'ref/prompt' as const, name: 'hostile__echo' };
    clean('completion/complete', await client.complete({ ref, argument: { name: 'a', value: 'echo' } }));
    clean('tools/call', await client.callTool({ name: 'hostile__echo', arguments: { key: 'echo' } }));
  });

  it('replaces the secret in the error (message and data) of every forwarded method', async () => {
    clean('resources/read error', await failure(client.readResource({ uri: 'hostile://fail' })));
    clean('prompts/get error', await failure(client.getPrompt({ name: 'hostile__fail' })));
    const ref = { type: 'ref/prompt' as const, name: 'hostile__echo' };
    clean('completion error', await failure(client.complete({ ref, argument: { name: 'a', value: 'fail' } })));
    clean('logging/setLevel error', await failure(client.setLoggingLevel('emergency')));
    clean('resources/subscribe error', await failure(client.subscribeResource({ uri: 'hostile://fail' })));
    clean('tools/call error', await failure(client.callTool({ name: 'hostile__echo', arguments: { key: 'fail' } })));
    // An HTTP failure whose body echoes the header: described, never quoted.
    clean('HTTP 500', await failure(client.readResource({ uri: 'hostile://http-fail' })), 'HTTP 500');
  });

  it('replaces the secret in log lines, progress, resource updates, and sampling and elicitation requests', async () => {
    const progress: unknown[] = [];
    await client.readResource({ uri: 'hostile://relay' }, { onprogress: (p) => void progress.push(p) });
    clean('notifications/message', logs);
    clean('notifications/progress', progress);
    clean('sampling/createMessage and elicitation/create', requests);
    assert.equal(requests.length, 2, 'both requests reached the client');
    // Sent on the session's standalone stream, which the client opens on its own: subscribed until one arrives.
    const deadline = Date.now() + 10_000;
    while (updates.length === 0) {
      assert.ok(Date.now() < deadline, 'no notifications/resources/updated arrived');
      await client.subscribeResource({ uri: 'hostile://echo' });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    clean('notifications/resources/updated', updates);
  });

  it('bounds every answer, error, log line and request it relays by gatewayResultBytes', async () => {
    overBound('resources/read', (await failure(client.readResource({ uri: 'hostile://big' }))).message);
    overBound('prompts/get', (await failure(client.getPrompt({ name: 'hostile__big' }))).message);
    const ref = { type: 'ref/prompt' as const, name: 'hostile__echo' };
    const completion = client.complete({ ref, argument: { name: 'a', value: 'big' } });
    overBound('completion/complete', (await failure(completion)).message);
    overBound('an error', (await failure(client.readResource({ uri: 'hostile://fail-big' }))).message);
    const called = await client.callTool({ name: 'hostile__echo', arguments: { key: 'big' } });
    assert.equal(called.isError, true);
    overBound('tools/call', JSON.stringify(called.content));
    logs.length = 0;
    const relayed = await client.readResource({ uri: 'hostile://relay-big' });
    const text = (relayed.contents[0] as { text: string }).text;
    assert.match(text, /^sampling refused: .*limit gatewayResultBytes/, text.slice(0, 200));
    const deadline = Date.now() + 10_000;
    while (!logs.some((params) => (params as { data?: unknown }).data === 'log after')) {
      assert.ok(Date.now() < deadline, 'the small log line did not arrive');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(logs, [{ level: 'info', data: 'log after' }], 'the log line over the bound is not relayed');
  });

  it('keeps the secret out of the tool definitions it stores, lists and checks calls against', async () => {
    clean('tools/list', await client.listTools());
    const stored = await platform.runtime.db.selectFrom('mcp_tools').selectAll().execute();
    assert.ok(stored.length > 0);
    assert.ok(!JSON.stringify(stored).includes(secret), 'a stored tool definition carries the secret');
    const called = await client.callTool({ name: 'hostile__echo', arguments: { key: 'x' } });
    assert.notEqual(called.isError, true, JSON.stringify(called));
  });

  it('describes an upstream that fails to open, never quoting what it sent', async () => {
    hostile.failInitialize(true);
    const fresh = await gatewayClient(gateway.url(agentId), token);
    try {
      const called = await fresh.callTool({ name: 'hostile__echo', arguments: { key: 'x' } }).then(
        (result) => JSON.stringify(result),
        (error: unknown) => String(error),
      );
      assert.ok(!called.includes(secret), `the failed open carries the upstream's secret: ${called.slice(0, 300)}`);
      assert.ok(!called.includes('initialize broke'), `the upstream's body is quoted: ${called.slice(0, 300)}`);
      assert.match(called, /HTTP 500/);
    } finally {
      hostile.failInitialize(false);
      await fresh.close().catch(() => undefined);
    }
  });

  it('never writes the secret to a log line', () => {
    assertLogsClean(platform.logs, [secret]);
  });
});
