import assert from 'node:assert/strict';
import request from 'supertest';
import { upsertMembership } from '../../db/member.repository';
import { auditRowsOf, freshRequestId } from '../helpers/audit-rows';
import { harness, type Harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

describe('MCP playground: one tool call through a worker, answered raw', () => {
  const secret = 'playground-token-7f3a91c2e5d8b604';
  let h: Harness;
  let platform: TestPlatform;
  let everything: EverythingServer;
  let owner: Tenant;
  let viewer: Tenant;
  let other: Tenant;
  let serverId: string;

  // The viewer is a member of the owner's workspace and names it.
  const headersOf = (tenant: Tenant): Record<string, string> =>
    tenant === viewer ? { ...tenant.auth, 'X-Workspace-Id': owner.workspaceId } : tenant.auth;
  const callTool = (tenant: Tenant, tool: string, body: object, server = serverId, requestId = freshRequestId()) =>
    request(platform.app)
      .post(`/api/v1/mcp-servers/${server}/tools/${encodeURIComponent(tool)}/call`)
      .set({ ...headersOf(tenant), 'X-Request-Id': requestId })
      .send(body);

  before(async () => {
    h = await harness();
    everything = await startEverythingHttp();
    platform = await createTestPlatform(h, { vault: 'openbao', env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    owner = await createTenant(h.db, 'owner');
    other = await createTenant(h.db, 'owner');
    viewer = await createTenant(h.db, 'viewer');
    await upsertMembership(h.db, owner.workspaceId, viewer.userId, 'viewer');
    const created = await request(platform.app)
      .post('/api/v1/mcp-servers')
      .set(owner.auth)
      .send({
        name: 'everything',
        transport: 'http',
        config: { url: everything.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
        secret_value: secret,
      });
    assert.equal(created.status, 201, created.text);
    serverId = created.body.id;
    const synced = await request(platform.app).post(`/api/v1/mcp-servers/${serverId}/refresh-tools`).set(owner.auth);
    assert.equal(synced.status, 200, synced.text);
  });
  after(async () => {
    await platform?.close();
    await everything?.stop();
  });

  it('answers content, structuredContent, latency and a passing output-schema check, and audits the call', async () => {
    const requestId = freshRequestId();
    const res = await callTool(
      owner,
      'get-structured-content',
      { arguments: { location: 'Chicago' } },
      serverId,
      requestId,
    );
    assert.equal(res.status, 200, res.text);
    const weather = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
    assert.deepEqual(res.body.content, [{ type: 'text', text: JSON.stringify(weather) }]);
    assert.deepEqual(res.body.structuredContent, weather);
    assert.equal(res.body.isError, false);
    assert.ok(Number.isInteger(res.body.latency_ms) && res.body.latency_ms >= 0, res.text);
    assert.deepEqual(res.body.output_schema_check, { valid: true });
    const [entry] = await auditRowsOf(h.db, requestId);
    assert.equal(entry.action, 'POST /api/v1/mcp-servers/:id/tools/:tool/call');
    assert.equal(entry.outcome, 'success');
    assert.equal(entry.workspace_id, owner.workspaceId);
  });

  it('answers null for the check of a tool without an output schema', async () => {
    const res = await callTool(owner, 'get-sum', { arguments: { a: 2, b: 3.5 } });
    assert.equal(res.status, 200, res.text);
    assert.match(JSON.stringify(res.body.content), /5\.5/);
    assert.equal(res.body.structuredContent, undefined);
    assert.equal(res.body.output_schema_check, null);
  });

  it('reports structured content that breaks the stored output schema', async () => {
    // The server's declared schema as the last sync stored it now wants humidity as text (a definition drift).
    await h.db
      .updateTable('mcp_tools')
      .set({
        output_schema: JSON.stringify({
          type: 'object',
          properties: { humidity: { type: 'string' } },
          required: ['humidity'],
        }),
      })
      .where('server_id', '=', serverId)
      .where('name', '=', 'get-structured-content')
      .execute();
    const res = await callTool(owner, 'get-structured-content', { arguments: { location: 'New York' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.output_schema_check.valid, false);
    assert.match(res.body.output_schema_check.errors.join(' '), /humidity/);
  });

  it("answers the server's own refusal as isError", async () => {
    const res = await callTool(owner, 'get-structured-content', { arguments: { location: 'Paris' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.isError, true);
    assert.equal(res.body.output_schema_check, null);
  });

  it('refuses bad arguments with a 422 naming the field', async () => {
    const cases: Array<[object, string, RegExp]> = [
      [{ arguments: { a: 'two', b: 3 } }, 'arguments.a', /must be of type number, not string/],
      [{ arguments: { a: 2 } }, 'arguments.b', /is required/],
      [{ arguments: { a: 2, b: 3, c: 4 } }, 'arguments.c', /is not a parameter/],
      [{ arguments: [1, 2] }, 'arguments', /./],
      [{ arguments: { a: 2, b: 3 }, extra: true }, '(body)', /extra/],
      [{ arguments: { a: 'x'.repeat(70_000), b: 3 } }, 'arguments', /toolArgsBytes/],
    ];
    for (const [body, field, message] of cases) {
      const res = await callTool(owner, 'get-sum', body);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.equal(res.body.error.details[0].field, field, res.text);
      assert.match(res.body.error.message, message);
    }
  });

  it('answers 404 for an unknown tool and for a server of another workspace', async () => {
    const unknown = await callTool(owner, 'no-such-tool', { arguments: {} });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.error.code, 'not_found');
    const foreign = await callTool(other, 'get-sum', { arguments: { a: 1, b: 2 } });
    assert.equal(foreign.status, 404, foreign.text);
  });

  it('refuses a viewer (no mcp:call) and writes a denied audit entry', async () => {
    const requestId = freshRequestId();
    const res = await callTool(viewer, 'get-sum', { arguments: { a: 1, b: 2 } }, serverId, requestId);
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error.code, 'forbidden');
    const [entry] = await auditRowsOf(h.db, requestId);
    assert.equal(entry.outcome, 'denied');
  });

  it('never shows the server secret in a response or a log line', () => {
    assertLogsClean(platform.logs, [secret]);
  });
});
