import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { evalApi } from '../helpers/eval-api';
import { gatewayClient, serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness } from '../helpers/harness';
import { HOSTILE_SCHEMA_TOOLS, hostileAnswer, timedWithStalls } from '../helpers/hostile-schemas';
import { startPagedMcpServer, type PagedMcpServer } from '../helpers/paged-mcp-server';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const PROMPT_MS = 2_000;
const STALL_MS = 1_000;
const UNCHECKABLE =
  /output schema cannot be used: it (nests deeper|expands to more subschemas) than allowed: .*\(limit outputSchema(Depth|Nodes)\)/;

describe('hostile output schemas: every MCP client checks a result in time linear in it', function () {
  this.timeout(180_000);
  let platform: TestPlatform;
  let peer: PagedMcpServer;
  let owner: Tenant;
  let serverId: string;
  let gateway: ServedGateway;
  let client: Client;

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    peer = await startPagedMcpServer({
      token: 'hostile-schemas-token',
      pageSize: 10,
      tools: HOSTILE_SCHEMA_TOOLS.map(({ answer: _answer, ...tool }) => tool),
      callTool: async (name) => hostileAnswer(name),
    });
    owner = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, owner);
    const server = await api.send('post', '/api/v1/mcp-servers', 201, {
      name: 'hostile',
      transport: 'http',
      config: { url: peer.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: 'hostile-schemas-token',
    });
    serverId = server.id;
    await api.send('post', `/api/v1/mcp-servers/${serverId}/refresh-tools`, 200);
    const agent = await api.send('post', '/api/ai-agents', 201, {
      name: 'hostile-agent',
      model: 'gpt-4o',
      instructions: 'x',
    });
    await api.send('post', `/api/v1/agents/${agent.data.id}/mcp-servers`, 200, { mcp_server_id: serverId });
    gateway = await serveGateway(platform);
    // The test's own client never lists tools: the SDK would check results with its Ajv here too.
    client = await gatewayClient(gateway.url('hostile-agent'), await serviceToken(platform, owner));
  });
  after(async () => {
    await client?.close();
    await gateway?.close();
    await peer?.close();
    await platform?.close();
  });

  const throughGateway = (name: string) =>
    timedWithStalls(() =>
      client.callTool({ name: `hostile__${name}`, arguments: {} }).then(
        (result) => ({ structured: result.structuredContent, error: undefined as string | undefined }),
        (error: Error) => ({ structured: undefined, error: error.message }),
      ),
    );
  const throughPlayground = (name: string) =>
    timedWithStalls(async () => {
      const res = await request(platform.app)
        .post(`/api/v1/mcp-servers/${serverId}/tools/${name}/call`)
        .set(owner.auth)
        .send({ arguments: {} });
      assert.equal(res.status, 200, res.text);
      return res.body as { structuredContent: unknown; output_schema_check: { valid: boolean; errors?: string[] } };
    });
  const prompt = (label: string, timing: { ms: number; stallMs: number }): void => {
    assert.ok(timing.ms < PROMPT_MS, `${label} took ${Math.round(timing.ms)} ms`);
    assert.ok(timing.stallMs < STALL_MS, `${label} stalled the event loop for ${Math.round(timing.stallMs)} ms`);
  };

  for (const name of ['pattern', 'pattern_properties', 'huge_enum']) {
    it(`answers a gateway call of the ${name} tool promptly, its result passed on, the process responsive`, async () => {
      const timing = await throughGateway(name);
      prompt(`the gateway call of ${name}`, timing);
      assert.equal(timing.value.error, undefined);
      assert.deepEqual(timing.value.structured, hostileAnswer(name).structuredContent);
    });

    it(`answers a playground call of the ${name} tool promptly, its output-schema check passing`, async () => {
      const timing = await throughPlayground(name);
      prompt(`the playground call of ${name}`, timing);
      assert.deepEqual(timing.value.output_schema_check, { valid: true });
    });
  }

  it('refuses, promptly, to check a result against references that double at each level, naming the limit', async () => {
    const gatewayTiming = await throughGateway('doubling_refs');
    prompt('the gateway call of doubling_refs', gatewayTiming);
    assert.match(gatewayTiming.value.error ?? '', UNCHECKABLE);
    const playgroundTiming = await throughPlayground('doubling_refs');
    prompt('the playground call of doubling_refs', playgroundTiming);
    assert.equal(playgroundTiming.value.output_schema_check.valid, false);
    assert.match(playgroundTiming.value.output_schema_check.errors?.join(' ') ?? '', UNCHECKABLE);
  });
});
