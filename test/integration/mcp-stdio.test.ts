import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { waitForFlowRunEnd } from '../helpers/flow-runs';
import { harness, type Harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { everythingStdioEntry } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

// What the SDK's stdio transport passes on from the worker's own environment (a sudo-like minimal set).
const MINIMAL_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

describe('MCP servers: stdio_curated entries from the operator catalog file', () => {
  const marker = `assay-stdio-${crypto.randomBytes(6).toString('hex')}`;
  const secret = `stdio-secret-${crypto.randomBytes(16).toString('hex')}`;
  const canary = `canary-${crypto.randomBytes(8).toString('hex')}`;
  let h: Harness;
  let platform: TestPlatform;
  let tenant: Tenant;
  let serverId: string;

  const api = (method: 'get' | 'post' | 'patch', url: string, body?: object) =>
    request(platform.app)[method](url).set(tenant.auth).send(body);
  const catalogId = async (name: string): Promise<string> =>
    (await api('get', '/api/v1/mcp-catalog')).body.find((e: { name: string }) => e.name === name).id;
  const childRunning = async (): Promise<boolean> =>
    (await promisify(execFile)('ps', ['-eo', 'args'])).stdout.includes(marker);

  before(async () => {
    h = await harness();
    const catalogFile = path.join(h.tmpDir, `catalog-${marker}.json`);
    fs.writeFileSync(
      catalogFile,
      JSON.stringify({
        entries: [
          everythingStdioEntry(marker),
          {
            name: 'leaky-stdio',
            label: 'Leaky',
            category: 'Test',
            image: 'https://example.com/l.png',
            transport: 'stdio_curated',
            required_secrets: ['LEAKY_KEY'],
            command: [
              process.execPath,
              '-e',
              'console.error("starting with key " + process.env.LEAKY_KEY); process.exit(3)',
            ],
            env: { LEAKY_KEY: 'LEAKY_KEY' },
          },
        ],
      }),
    );
    process.env.ASSAY_TEST_CANARY = canary;
    platform = await createTestPlatform(h, { env: { MCP_CATALOG_FILE: catalogFile } });
    await platform.startWorker();
    tenant = await createTenant(h.db, 'owner');
  });
  after(async () => {
    delete process.env.ASSAY_TEST_CANARY;
    await platform?.close();
  });

  it('registers a server from the stdio entry, tests it and refreshes its tools', async () => {
    const created = await api('post', '/api/v1/mcp-servers', {
      catalog_id: await catalogId('everything-stdio'),
      name: 'local-everything',
      transport: 'stdio_curated',
      secret_value: secret,
    });
    assert.equal(created.status, 201, created.text);
    serverId = created.body.id;
    const tested = await api('post', `/api/v1/mcp-servers/${serverId}/test`);
    assert.equal(tested.body.status, 'connected', tested.text);
    const synced = await api('post', `/api/v1/mcp-servers/${serverId}/refresh-tools`);
    assert.equal(synced.status, 200, synced.text);
    const tools = (await api('get', `/api/v1/mcp-servers/${serverId}/tools`)).body.map((t: { name: string }) => t.name);
    assert.equal(tools.length, synced.body.tools_count);
    assert.ok(tools.includes('get-env') && tools.includes('get-sum'));
    assert.equal(await childRunning(), false, 'the stdio child is stopped after the call');
  });

  it("keeps a stdio server's command, args and env the operator's: a PATCH cannot point its secret elsewhere", async () => {
    const before = (await api('get', `/api/v1/mcp-servers/${serverId}`)).body;
    for (const config of [
      { url: 'http://127.0.0.1:9/mcp' },
      { headers: { Authorization: 'Bearer $EVERYTHING_API_KEY' } },
    ]) {
      const res = await api('patch', `/api/v1/mcp-servers/${serverId}`, { config });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.error.details[0].field, 'config');
    }
    assert.deepEqual((await api('get', `/api/v1/mcp-servers/${serverId}`)).body, before);
  });

  it('gives the child only a minimal environment plus exactly the declared secret (shown by get-env)', async () => {
    const flow = await api('post', '/api/v1/flows', {
      name: 'env',
      nodes: [{ id: 'env', kind: 'mcp.call_tool', mcp_server_id: serverId, tool_name: 'get-env', parameters: {} }],
    });
    assert.equal(flow.status, 201, flow.text);
    const started = await api('post', `/api/v1/flows/${flow.body.id}/runs`, { variables: {} });
    const run = await waitForFlowRunEnd((path) => api('get', path), started.body.id);
    assert.equal(run.body.status, 'completed', run.text);
    const env = JSON.parse(run.body.nodes[0].output.content[0].text) as Record<string, string>;
    const unexpected = Object.keys(env).filter((key) => !MINIMAL_ENV.includes(key) && key !== 'EVERYTHING_API_KEY');
    assert.deepEqual(unexpected, []);
    assert.ok('PATH' in env);
    // The child had the secret; the recorded output has it scrubbed before it reaches Postgres.
    assert.equal(env.EVERYTHING_API_KEY, '[secret]');
    assert.equal(run.text.includes(secret), false);
    assert.equal(run.text.includes(canary), false);
    assert.equal(await childRunning(), false);
  });

  it("reports a crashing child's stderr with the secret scrubbed", async () => {
    const leakySecret = `leaky-${crypto.randomBytes(12).toString('hex')}`;
    const created = await api('post', '/api/v1/mcp-servers', {
      catalog_id: await catalogId('leaky-stdio'),
      name: 'leaky',
      transport: 'stdio_curated',
      secret_value: leakySecret,
    });
    const tested = await api('post', `/api/v1/mcp-servers/${created.body.id}/test`);
    assert.equal(tested.status, 200);
    assert.equal(tested.body.status, 'error');
    assert.match(tested.body.message, /stderr: starting with key \[secret\]/);
    assert.equal(tested.text.includes(leakySecret), false);
    const synced = await api('post', `/api/v1/mcp-servers/${created.body.id}/refresh-tools`);
    assert.equal(synced.status, 502);
    assert.equal(synced.text.includes(leakySecret), false);
    const server = await api('get', `/api/v1/mcp-servers/${created.body.id}`);
    assert.equal(server.body.status, 'error');
    assert.match(server.body.last_error, /\[secret\]/);
    assertLogsClean(platform.logs, [secret, leakySecret]);
  });
});
