import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { AddressInfo } from 'node:net';
import {
  installForwarding,
  unionCapabilities,
  upstreamClientCapabilities,
  type ForwardUpstream,
} from '../../gateway/forward/install';
import { listen } from '../../cli/http-server';
import { runServerConformance, startReferenceServer, type ReferenceServer } from '../helpers/conformance';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';

/** Follows a list's cursors to the end; answers every item. */
async function all<T>(page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = await page(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor;
  } while (cursor);
  return items;
}

/**
 * The gateway's forwarding of resources, prompts and completions across two real upstream servers (the conformance
 * suite's reference server and server-everything), each under its own prefix; a client talks to the forwarding
 * server in memory (the HTTP endpoint, auth and tools are the gateway-conformance test's).
 */
describe('gateway forwarding across two linked servers', () => {
  let reference: ReferenceServer;
  let everything: EverythingServer;
  let upstreams: ForwardUpstream[];
  let client: Client;

  before(async () => {
    [reference, everything] = await Promise.all([startReferenceServer(), startEverythingHttp()]);
    upstreams = [];
    for (const [serverName, url] of [
      ['ref', reference.url],
      ['evr', everything.url],
    ]) {
      const upstreamClient = new Client({ name: 'gateway-test', version: '1.0.0' }, { capabilities: {} });
      await upstreamClient.connect(new StreamableHTTPClientTransport(new URL(url)));
      upstreams.push({ serverId: serverName, serverName, prefix: `${serverName}__`, client: upstreamClient });
    }
    const server = new Server({ name: 'gateway', version: '1' }, { capabilities: unionCapabilities(upstreams) });
    installForwarding(server, upstreams, {});
    const [downstream, side] = InMemoryTransport.createLinkedPair();
    await server.connect(side);
    client = new Client({ name: 'client', version: '1' }, { capabilities: {} });
    await client.connect(downstream);
  });
  after(async () => {
    await client?.close();
    for (const upstream of upstreams ?? []) await upstream.client.close();
    await reference?.stop();
    await everything?.stop();
  });

  it('advertises the union of the upstreams’ capabilities', () => {
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps?.resources, { subscribe: true, listChanged: true });
    assert.ok(caps?.prompts && caps.completions && caps.logging);
  });

  it('lists prompts of both servers under their prefixes, page by page, and gets one by its exposed name', async () => {
    const prompts = await all(async (cursor) => {
      const page = await client.listPrompts(cursor ? { cursor } : undefined);
      return { items: page.prompts.map((p) => p.name), nextCursor: page.nextCursor };
    });
    assert.ok(prompts.includes('ref__test_simple_prompt') && prompts.includes('evr__simple-prompt'), String(prompts));
    assert.ok(prompts.every((name) => name.startsWith('ref__') || name.startsWith('evr__')));
    const got = await client.getPrompt({
      name: 'ref__test_prompt_with_arguments',
      arguments: { arg1: 'x1', arg2: 'y2' },
    });
    assert.deepEqual(got.messages[0].content, { type: 'text', text: "Prompt with arguments: arg1='x1', arg2='y2'" });
    await assert.rejects(client.getPrompt({ name: 'nobody__x' }), (e: McpError) => e.code === ErrorCode.InvalidParams);
  });

  it('routes reads by the URI listed, else by template; an unknown URI and a forged cursor are refused', async () => {
    const resources = await all(async (cursor) => {
      const page = await client.listResources(cursor ? { cursor } : undefined);
      return { items: page.resources.map((r) => r.uri), nextCursor: page.nextCursor };
    });
    assert.ok(
      resources.includes('test://static-text') && resources.includes(`demo://resource/static/document/features.md`),
    );
    const text = await client.readResource({ uri: 'test://static-text' });
    assert.equal(text.contents[0].uri, 'test://static-text');
    const doc = await client.readResource({ uri: 'demo://resource/static/document/features.md' });
    assert.equal(doc.contents[0].uri, 'demo://resource/static/document/features.md');
    // Never listed: routed by the reference server's template test://template/{id}/data.
    const templated = await client.readResource({ uri: 'test://template/7/data' });
    assert.equal(templated.contents[0].uri, 'test://template/7/data');
    await assert.rejects(
      client.readResource({ uri: 'nowhere://x' }),
      (e: McpError) => e.code === ErrorCode.InvalidParams,
    );
    await assert.rejects(
      client.listResources({ cursor: 'forged' }),
      (e: McpError) => e.code === ErrorCode.InvalidParams,
    );
  });

  it('completes a prompt argument on the server behind the prefix', async () => {
    const answer = await client.complete({
      ref: { type: 'ref/prompt', name: 'evr__completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    assert.ok(answer.completion.values.includes('Engineering'), JSON.stringify(answer));
  });
});

/**
 * The forwarding layer alone over Streamable HTTP in front of the reference server, under the conformance suite: one
 * forwarding server per session, its upstream client declaring the client's sampling and elicitation, tools passed
 * through by the relay (as the gateway's tools/call does; auth, policy and the stored catalog are the gateway's own).
 */
describe('gateway forwarding under the MCP conformance suite', () => {
  let reference: ReferenceServer;
  let host: { url: string; close(): Promise<void> };
  const upstreamClients: Client[] = [];

  async function openSession(capabilities: ClientCapabilities | undefined): Promise<StreamableHTTPServerTransport> {
    const declared = upstreamClientCapabilities(capabilities);
    const upstreamClient = new Client({ name: 'gateway-test', version: '1.0.0' }, { capabilities: declared });
    await upstreamClient.connect(new StreamableHTTPClientTransport(new URL(reference.url)));
    upstreamClients.push(upstreamClient);
    const upstream = { serverId: 'ref', serverName: 'ref', prefix: '', client: upstreamClient };
    const server = new Server(
      { name: 'gateway', version: '1' },
      { capabilities: { tools: {}, ...unionCapabilities([upstream]) } },
    );
    const relay = installForwarding(server, [upstream], declared);
    server.setRequestHandler(ListToolsRequestSchema, (request) => upstreamClient.listTools(request.params));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      relay.during('ref', extra, (options) =>
        upstreamClient.callTool(request.params, undefined, { ...options, timeout: 60_000 }),
      ),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
    await server.connect(transport);
    return transport;
  }

  before(async () => {
    reference = await startReferenceServer();
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const app = createMcpExpressApp();
    app.all('/mcp', async (req, res) => {
      const id = req.get('mcp-session-id');
      let transport = id === undefined ? undefined : sessions.get(id);
      if (!transport && req.body?.method === 'initialize') transport = await openSession(req.body.params?.capabilities);
      if (!transport) return void res.status(404).json({ error: { code: 'not_found', message: 'MCP session' } });
      await transport.handleRequest(req as never, res, req.body);
      if (transport.sessionId) sessions.set(transport.sessionId, transport);
    });
    const served = await listen(app, '127.0.0.1', 0);
    host = { url: `http://127.0.0.1:${(served.server.address() as AddressInfo).port}/mcp`, close: served.close };
  });
  after(async () => {
    await host?.close();
    for (const upstreamClient of upstreamClients) await upstreamClient.close();
    await reference?.stop();
  });

  it('passes every check of every 2025-11-25 scenario', async () => {
    const checks = await runServerConformance(host.url);
    assert.ok(new Set(checks.map((check) => check.scenario)).size >= 30);
    const failed = checks.filter((check) => check.status !== 'SUCCESS');
    assert.deepEqual(
      failed.map((check) => ({ scenario: check.scenario, id: check.id, error: check.errorMessage })),
      [],
    );
  });
});
