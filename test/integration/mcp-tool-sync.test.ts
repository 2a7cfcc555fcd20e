import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { harness, type Harness } from '../helpers/harness';
import { listToolsWithSdk } from '../helpers/mcp-peers';
import { makeTools, startPagedMcpServer, type PagedMcpServer } from '../helpers/paged-mcp-server';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

describe('MCP tool sync: pagination, change report, shared runs and failures', () => {
  const token = `paged-token-${crypto.randomBytes(16).toString('hex')}`;
  let h: Harness;
  let platform: TestPlatform;
  let peer: PagedMcpServer;
  let tenant: Tenant;
  let serverId: string;

  const refresh = (id = serverId) =>
    request(platform.app).post(`/api/v1/mcp-servers/${id}/refresh-tools`).set(tenant.auth);

  before(async () => {
    h = await harness();
    peer = await startPagedMcpServer({ token, pageSize: 100, tools: makeTools(250) });
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    tenant = await createTenant(h.db, 'builder');
    const created = await request(platform.app)
      .post('/api/v1/mcp-servers')
      .set(tenant.auth)
      .send({
        name: 'paged',
        transport: 'http',
        config: { url: peer.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
        secret_value: token,
      });
    assert.equal(created.status, 201, created.text);
    serverId = created.body.id;
  });
  after(async () => {
    await platform?.close();
    await peer?.close();
  });

  it('persists all 250 tools served over 3 pages, with the resolved bearer header', async () => {
    assert.equal((await listToolsWithSdk(peer.url, { Authorization: `Bearer ${token}` })).length, 250);
    const res = await refresh();
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.tools_count, 250);
    assert.equal(res.body.changes.added.length, 250);
    const tools = await request(platform.app).get(`/api/v1/mcp-servers/${serverId}/tools?limit=500`).set(tenant.auth);
    assert.equal(tools.body.length, 250);
    assert.deepEqual(tools.body[0].parameters, [
      { name: 'text', type: 'string', description: 'Some text', required: true },
    ]);
  });

  it('reports a removed, an added and a changed tool on the next sync', async () => {
    const tools = makeTools(251).slice(1);
    tools[0] = { ...tools[0], description: 'Tool number 1, now better' };
    peer.tools = tools;
    const res = await refresh();
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.tools_count, 250);
    assert.deepEqual(res.body.changes, { added: ['t250'], removed: ['t000'], changed: ['t001'] });
    const stored = await request(platform.app).get(`/api/v1/mcp-servers/${serverId}/tools?limit=500`).set(tenant.auth);
    const names = stored.body.map((t: { name: string }) => t.name);
    assert.equal(names.includes('t000'), false);
    assert.equal(names.includes('t250'), true);
    assert.equal(stored.body.find((t: { name: string }) => t.name === 't001').description, 'Tool number 1, now better');
  });

  it('lets concurrent refresh calls share one sync run', async () => {
    peer.setListDelay(400);
    const before = peer.initializeCount();
    const [first, second] = await Promise.all([refresh(), refresh()]);
    peer.setListDelay(0);
    assert.equal(first.status, 200, first.text);
    assert.equal(second.status, 200, second.text);
    assert.equal(first.body.synced_at, second.body.synced_at);
    assert.equal(peer.initializeCount() - before, 1);
  });

  it('answers a clear error and leaves the server in error with its last error when the credential is rejected', async () => {
    const patched = await request(platform.app)
      .patch(`/api/v1/mcp-servers/${serverId}`)
      .set(tenant.auth)
      .send({ secret_value: 'wrong-token-value' });
    assert.equal(patched.body.status, 'pending');
    const tested = await request(platform.app).post(`/api/v1/mcp-servers/${serverId}/test`).set(tenant.auth);
    assert.deepEqual(tested.body, { status: 'error', message: 'HTTP 401: the server rejected the credentials' });
    const res = await refresh();
    assert.equal(res.status, 502);
    assert.equal(res.body.error.message, 'HTTP 401: the server rejected the credentials');
    const server = await request(platform.app).get(`/api/v1/mcp-servers/${serverId}`).set(tenant.auth);
    assert.equal(server.body.status, 'error');
    assert.equal(server.body.last_error, 'HTTP 401: the server rejected the credentials');
    assert.equal(
      (await request(platform.app).get(`/api/v1/mcp-servers/${serverId}/tools?limit=500`).set(tenant.auth)).body.length,
      250,
      'stored tools stay readable',
    );
  });
});
