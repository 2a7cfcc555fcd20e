import assert from 'node:assert/strict';
import { LIMITS } from '../../domain/limits';
import { linkMcpServer, publishedAgent } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startProtocolMcpServer, type ProtocolMcpServer } from '../helpers/protocol-mcp-server';
import { createTenant, type Tenant } from '../helpers/tenants';

const QUOTA = 20;

/** An HTTP answer of the gateway: its status and the JSON-RPC messages (or error body) it carried. */
interface Answer {
  status: number;
  messages: Array<Record<string, any>>;
  headers: Headers;
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  const lines = res.headers.get('content-type')?.startsWith('text/event-stream')
    ? text.split('\n').filter((line) => line.startsWith('data:') && line.length > 5)
    : [text].filter(Boolean);
  return {
    status: res.status,
    headers: res.headers,
    messages: lines.map((line) => JSON.parse(line.replace(/^data:/, ''))),
  };
}

/** A client speaking raw Streamable HTTP to the gateway, as a batching client of 2025-03-26 would. */
class RawClient {
  private sessionId = '';

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly version: string,
  ) {}

  async post(body: unknown): Promise<Answer> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': this.version,
    };
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    const res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body) });
    this.sessionId ||= res.headers.get('mcp-session-id') ?? '';
    return answerOf(res);
  }

  async initialize(): Promise<void> {
    const params = { protocolVersion: this.version, capabilities: {}, clientInfo: { name: 'batcher', version: '1' } };
    const init = await this.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params });
    assert.equal(init.status, 200, JSON.stringify(init.messages));
    assert.equal(init.messages[0]?.result?.protocolVersion, this.version);
    assert.equal((await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  }
}

const calls = (tool: string, from: number, n: number): object[] =>
  Array.from({ length: n }, (_, i) => ({
    jsonrpc: '2.0',
    id: from + i,
    method: 'tools/call',
    params: { name: tool, arguments: {} },
  }));

describe("the gateway's HTTP entry: JSON-RPC batches under the rate limit, per protocol version", () => {
  let platform: TestPlatform;
  let tenant: Tenant;
  let upstream: ProtocolMcpServer;
  let gateway: ServedGateway;
  let url: string;
  const tool = 'counter__order_total';

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    upstream = await startProtocolMcpServer();
    tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    const agent = await publishedAgent(api, 'batching', 'gpt-4o');
    await linkMcpServer(api, agent.id, 'counter', upstream.url);
    gateway = await serveGateway(platform, { GATEWAY_RATE_LIMIT_TOKEN_PER_MINUTE: QUOTA });
    url = gateway.url(agent.id);
  });
  after(async () => {
    await gateway?.close();
    await upstream?.close();
    await platform?.close();
  });

  it('counts each message of a 2025-03-26 batch against the quota: no more calls reach the upstream than it allows', async () => {
    const client = new RawClient(url, await serviceToken(platform, tenant), '2025-03-26');
    await client.initialize();
    const before = upstream.calls.length;
    const answers: Answer[] = [];
    for (let batch = 0; batch < 5; batch++) answers.push(await client.post(calls(tool, batch * 10, 10)));
    const reached = upstream.calls.length - before;
    assert.ok(reached <= QUOTA - 2, `${reached} tools/call reached the upstream under a quota of ${QUOTA} a minute`);
    assert.equal(answers[0].status, 200, 'the first batch fits the quota');
    assert.equal(answers[0].messages.filter((m) => m.result).length, 10);
    const refused = answers.filter((answer) => answer.status === 429);
    assert.ok(refused.length >= 3, answers.map((answer) => answer.status).join(', '));
    assert.equal(refused[0].messages[0]?.error?.code, 'rate_limited');
    assert.ok(Number(refused[0].headers.get('retry-after')) >= 1);
  });

  it('refuses a batch of more messages than the quota holds, and none of its calls reaches the upstream', async () => {
    const client = new RawClient(url, await serviceToken(platform, tenant), '2025-03-26');
    await client.initialize();
    const before = upstream.calls.length;
    const answer = await client.post(calls(tool, 0, QUOTA + 5));
    assert.equal(answer.status, 429);
    assert.equal(answer.messages[0]?.error?.code, 'rate_limited');
    assert.equal(upstream.calls.length, before);
  });

  for (const version of ['2025-06-18', '2025-11-25'])
    it(`refuses any batch of a session negotiated at ${version} with a JSON-RPC Invalid Request (-32600)`, async () => {
      const client = new RawClient(url, await serviceToken(platform, tenant), version);
      await client.initialize();
      const before = upstream.calls.length;
      const answer = await client.post(calls(tool, 0, 2));
      assert.equal(answer.status, 400, JSON.stringify(answer.messages));
      assert.deepEqual(
        { jsonrpc: answer.messages[0]?.jsonrpc, id: answer.messages[0]?.id, code: answer.messages[0]?.error?.code },
        { jsonrpc: '2.0', id: null, code: -32600 },
      );
      assert.equal(upstream.calls.length, before, 'no call of the batch reached the upstream');
      const single = await client.post(calls(tool, 7, 1)[0]);
      assert.equal(single.messages[0]?.result?.structuredContent?.total, 5, 'a single call still goes through');
    });

  it('answers a URL over requestUrlBytes 414 `uri_too_long` and long headers 431, in the usual error body', async () => {
    const authorization = `Bearer ${await serviceToken(platform, tenant)}`;
    for (const pad of [LIMITS.requestUrlBytes, 17_000]) {
      const res = await fetch(`${url}?pad=${'p'.repeat(pad)}`, { headers: { authorization } });
      const body = (await res.json()) as { error?: unknown };
      assert.equal(res.status, 414, JSON.stringify(body));
      assert.deepEqual(body.error, {
        code: 'uri_too_long',
        message: `the request URL is over ${LIMITS.requestUrlBytes} bytes`,
        details: { field: '(request URL)', max: LIMITS.requestUrlBytes },
      });
    }
    const longHeaders = await fetch(url, { headers: { authorization, 'x-pad': 'h'.repeat(17_000) } });
    assert.equal(longHeaders.status, 431);
    assert.equal(((await longHeaders.json()) as { error?: { code?: string } }).error?.code, 'headers_too_large');
  });
});
