import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { waitFor } from '../../lib/embedded/process-utils';
import { startReferenceServer, type ReferenceServer } from '../helpers/conformance';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { evalApi } from '../helpers/eval-api';
import { gatewayClient, serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness } from '../helpers/harness';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { carries } from '../helpers/secret-peers';
import { createTenant } from '../helpers/tenants';

const EVR_RESOURCE = 'demo://resource/static/document/features.md';
const EVR_PROMPT = 'evr__simple-prompt';
// The catalog is re-read every 200 ms; a loaded machine gets some slack.
const WINDOW_MS = 3_000;

/** Requests since `from` that carried `secret`, but for the DELETE that ends an MCP session. */
function sentWith(proxy: CountingProxy, secret: string, from = 0): number {
  const methods = proxy.httpMethods();
  return proxy
    .headers()
    .map((headers, i) => ({ headers, method: methods[i] }))
    .slice(from)
    .filter((r) => r.method !== 'DELETE' && carries([r.headers], secret)).length;
}

/** Whether an MCP session carrying `secret` was ended (DELETE) on the proxy. */
const ended = (proxy: CountingProxy, secret: string): boolean =>
  proxy.headers().some((headers, i) => proxy.httpMethods()[i] === 'DELETE' && carries([headers], secret));

/** MCP sessions ended (DELETE) on the proxy so far. */
const sessionsEnded = (proxy: CountingProxy): number => proxy.httpMethods().filter((m) => m === 'DELETE').length;

/** True when both the resource read and the prompt of server evr fail. */
async function evrGone(client: Client): Promise<boolean> {
  const read = await client.readResource({ uri: EVR_RESOURCE }).then(
    () => true,
    () => false,
  );
  const got = await client.getPrompt({ name: EVR_PROMPT }).then(
    () => true,
    () => false,
  );
  return !read && !got;
}

/**
 * An open gateway session routes every resources/read and prompts/get through the agent's current links: an unlinked
 * or deleted server stops answering within the catalog's poll, and a changed secret closes the old upstream session.
 * Two real upstreams (the conformance reference server as `ref`, server-everything as `evr`) behind proxies that
 * record the headers each request carried.
 */
describe('MCP gateway: an open session follows unlinks, deletions and secret changes (SDK client)', () => {
  let platform: TestPlatform;
  let gateway: ServedGateway;
  let reference: ReferenceServer;
  let everything: EverythingServer;
  let refProxy: CountingProxy;
  let evrProxy: CountingProxy;
  let api: ReturnType<typeof evalApi>;
  let agentId: string;
  let token: string;
  let evrSecret = `evr-${crypto.randomBytes(12).toString('hex')}`;
  const servers: Record<string, string> = {};
  const clients: Client[] = [];

  const connect = async (): Promise<Client> => {
    const client = await gatewayClient(gateway.url(agentId), token);
    clients.push(client);
    // Every page, so the session knows which server lists which URI.
    let cursor: string | undefined;
    do cursor = (await client.listResources(cursor ? { cursor } : undefined)).nextCursor;
    while (cursor);
    return client;
  };
  const server = async (name: string, url: string, secret: string): Promise<void> => {
    const created = await api.send('post', '/api/v1/mcp-servers', 201, {
      name,
      transport: 'http',
      config: { url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: secret,
    });
    servers[name] = created.id;
    await api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 200, { mcp_server_id: created.id });
  };
  /** Reads evr's resource and gets its prompt, through `client`. */
  const useEvr = async (client: Client): Promise<void> => {
    assert.equal((await client.readResource({ uri: EVR_RESOURCE })).contents[0].uri, EVR_RESOURCE);
    assert.ok((await client.getPrompt({ name: EVR_PROMPT })).messages.length > 0);
  };

  before(async () => {
    const h = await harness();
    [reference, everything] = await Promise.all([startReferenceServer(), startEverythingHttp()]);
    [refProxy, evrProxy] = await Promise.all([startCountingProxy(reference.url), startCountingProxy(everything.url)]);
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    const tenant = await createTenant(h.db, 'owner');
    api = evalApi(platform.app, tenant);
    agentId = (await api.send('post', '/api/ai-agents', 201, { name: 'live', model: 'gpt-4o', instructions: 'x' })).data
      .id;
    await server('ref', refProxy.url, `ref-${crypto.randomBytes(12).toString('hex')}`);
    await server('evr', evrProxy.url, evrSecret);
    token = await serviceToken(platform, tenant);
    gateway = await serveGateway(platform, { GATEWAY_LIST_POLL_MS: 200 });
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await gateway?.close();
    await platform?.close();
    await Promise.all([refProxy?.close(), evrProxy?.close()]);
    await reference?.stop();
    await everything?.stop();
  });

  it('closes the upstream session of a server whose secret changed; nothing more is sent with the old secret', async () => {
    const client = await connect();
    await useEvr(client);
    const old = evrSecret;
    assert.ok(sentWith(evrProxy, old) > 0);
    evrSecret = `evr-${crypto.randomBytes(12).toString('hex')}`;
    await api.send('patch', `/api/v1/mcp-servers/${servers.evr}`, 200, { secret_value: evrSecret });
    await waitFor(
      'the open session to reach server evr with its new secret',
      async () => {
        await useEvr(client);
        return sentWith(evrProxy, evrSecret) > 0;
      },
      WINDOW_MS,
    );
    const firstNew = evrProxy.headers().findIndex((headers) => carries([headers], evrSecret));
    await useEvr(client);
    assert.equal(sentWith(evrProxy, old, firstNew), 0, 'a request after the change carried the old secret');
    await waitFor('the old upstream session to be ended', async () => ended(evrProxy, old), WINDOW_MS);
  });

  it('hides the resources and prompts of a disabled link, and ends its upstream session', async () => {
    const client = await connect();
    await useEvr(client);
    const link = { mcp_server_id: servers.evr };
    const ends = sessionsEnded(evrProxy);
    await api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 200, { ...link, enabled: false });
    await waitFor('resources/read and prompts/get of the disabled link to fail', () => evrGone(client), WINDOW_MS);
    const mark = evrProxy.headers().length;
    assert.equal(await evrGone(client), true);
    assert.equal(sentWith(evrProxy, evrSecret, mark), 0, 'the disabled link’s server got a request');
    await waitFor('its upstream session to be ended', async () => sessionsEnded(evrProxy) > ends, WINDOW_MS);
    await api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 200, { ...link, enabled: true });
    await waitFor('the re-enabled link to answer again', async () => !(await evrGone(client)), WINDOW_MS);
    await useEvr(client);
  });

  it('answers no resources/read or prompts/get of an unlinked server, and ends its upstream session', async () => {
    const client = await connect();
    await useEvr(client);
    const ends = sessionsEnded(evrProxy);
    await api.send('delete', `/api/v1/agents/${agentId}/mcp-servers/${servers.evr}`, 204);
    await waitFor('resources/read and prompts/get of the unlinked server to fail', () => evrGone(client), WINDOW_MS);
    const mark = evrProxy.headers().length;
    assert.equal(await evrGone(client), true);
    assert.ok(!(await client.listPrompts()).prompts.some((p) => p.name.startsWith('evr__')));
    assert.equal((await client.readResource({ uri: 'test://static-text' })).contents[0].uri, 'test://static-text');
    assert.equal(sentWith(evrProxy, evrSecret, mark), 0, 'the unlinked server got a request');
    await waitFor('its upstream session to be ended', async () => sessionsEnded(evrProxy) > ends, WINDOW_MS);
    await api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 200, { mcp_server_id: servers.evr });
  });

  it('answers no resources/read or prompts/get of a deleted server, and sends nothing more with its secret', async () => {
    const client = await connect();
    await useEvr(client);
    const secret = evrSecret;
    const ends = sessionsEnded(evrProxy);
    await api.send('delete', `/api/v1/mcp-servers/${servers.evr}`, 204);
    await waitFor('resources/read and prompts/get of the deleted server to fail', () => evrGone(client), WINDOW_MS);
    const mark = evrProxy.headers().length;
    assert.equal(await evrGone(client), true);
    await client.listResources();
    assert.equal(sentWith(evrProxy, secret, mark), 0, 'the deleted server got a request');
    await waitFor('its upstream session to be ended', async () => sessionsEnded(evrProxy) > ends, WINDOW_MS);
  });
});
