import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import request from 'supertest';
import { API_ROUTES } from '../../api/app';
import type { AuditEvent } from '../../db/tables/audit-event.table';
import { upsertMembership } from '../../db/member.repository';
import { loadConfig } from '../../lib/config';
import { postgresBinDir } from '../../lib/embedded/postgres-cluster';
import { purgeExpiredAuditEvents } from '../../activities/platform/audit-retention';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

describe('audit trail: reading it, retention, and no secret in it', () => {
  let platform: TestPlatform;
  let owner: Tenant;
  const members = {} as Record<'admin' | 'builder', Tenant & { headers: Record<string, string> }>;
  const entries: AuditEvent[] = [];

  const call = (headers: Record<string, string>, method: Method, path: string, body?: object) => {
    const pending = request(platform.app)[method](path).set(headers);
    return body === undefined ? pending : pending.send(body);
  };
  const list = async (headers: Record<string, string>, query: string): Promise<request.Response> =>
    call(headers, 'get', `/api/workspaces/current/audit${query}`);
  const idsOf = (res: request.Response): string[] => res.body.data.map((entry: { id: string }) => entry.id);

  before(async () => {
    platform = await createTestPlatform(await harness());
    owner = await createTenant(platform.runtime.db, 'owner');
    for (const role of ['admin', 'builder'] as const) {
      const member = await createTenant(platform.runtime.db, role);
      await upsertMembership(platform.runtime.db, owner.workspaceId, member.userId, role);
      members[role] = { ...member, headers: { ...member.auth, 'X-Workspace-Id': owner.workspaceId } };
    }
    const agent = { model: 'gpt-4o', instructions: 'Hi.' };
    assert.equal((await call(owner.auth, 'post', '/api/ai-agents', { name: 'alpha', ...agent })).status, 201);
    assert.equal((await call(owner.auth, 'post', '/api/ai-agents', { name: 'beta', ...agent })).status, 201);
    const patch = { instructions: 'Hello.' };
    assert.equal((await call(members.admin.headers, 'patch', '/api/ai-agents/alpha', patch)).status, 200);
    assert.equal((await call(members.builder.headers, 'delete', '/api/ai-agents/beta')).status, 204);
    entries.push(
      ...(await platform.runtime.db
        .selectFrom('audit_events')
        .selectAll()
        .where('workspace_id', '=', owner.workspaceId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .execute()),
    );
    assert.equal(entries.length, 4);
  });
  after(async () => platform?.close());

  it('lists the workspace trail newest first to owners and admins; 403 naming audit:view for a builder', async () => {
    for (const headers of [owner.auth, members.admin.headers]) {
      const res = await list(headers, '');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        idsOf(res),
        entries.map((entry) => entry.id),
      );
      assert.equal(res.body.next_cursor, null);
    }
    assert.deepEqual(statusAndDetails(await list(members.builder.headers, '')), [403, { permission: 'audit:view' }]);
    const stranger = await createTenant(platform.runtime.db, 'owner');
    assert.deepEqual(idsOf(await list(stranger.auth, '')), []);
  });

  it('filters by actor, action, resource and time', async () => {
    const [deleted, patched, , created] = entries;
    const cases: Array<[string, AuditEvent[]]> = [
      [`?actor_id=${members.admin.userId}`, [patched]],
      [`?action=${encodeURIComponent('DELETE /api/ai-agents/:agent')}`, [deleted]],
      [`?resource_type=ai-agents&resource_id=${created.resource_id}`, [created]],
      ['?resource_id=alpha', [patched]],
      [`?since=${patched.at.toISOString()}`, [deleted, patched]],
      [`?until=${patched.at.toISOString()}`, entries.slice(2)],
    ];
    for (const [query, expected] of cases) {
      const res = await list(owner.auth, query);
      assert.equal(res.status, 200, `${query}: ${res.text}`);
      assert.deepEqual(
        idsOf(res),
        expected.map((entry) => entry.id),
        query,
      );
    }
    const [row] = (await list(owner.auth, `?actor_id=${members.builder.userId}`)).body.data;
    assert.deepEqual(row, {
      id: deleted.id,
      at: deleted.at.toISOString(),
      actor_type: 'user',
      actor_id: members.builder.userId,
      action: 'DELETE /api/ai-agents/:agent',
      resource_type: 'ai-agents',
      resource_id: 'beta',
      outcome: 'success',
      status: 204,
      request_id: deleted.request_id,
    });
  });

  it('pages with the cursor of the previous page', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const res = await list(owner.auth, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, res.text);
      seen.push(...idsOf(res));
      cursor = res.body.next_cursor;
    }
    assert.deepEqual(
      seen,
      entries.map((entry) => entry.id),
    );
  });

  it('answers 422 naming a bad filter', async () => {
    const since = entries[0].at.toISOString();
    for (const [query, field] of [
      ['?actor_id=someone', 'actor_id'],
      ['?since=yesterday', 'since'],
      [`?since=${since}&until=${since}`, 'until'],
      [`?resource_type=${'x'.repeat(301)}`, 'resource_type'],
      ['?limit=0', 'limit'],
      ['?cursor=bogus', 'cursor'],
    ]) {
      const res = await list(owner.auth, query);
      assert.equal(res.status, 422, query);
      assert.equal(res.body.error.details[0].field, field, query);
    }
  });

  it('purges entries older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    assert.equal(loadConfig({}).AUDIT_RETENTION_DAYS, 365);
    await sql`INSERT INTO audit_events (at, workspace_id, actor_type, actor_id, action, outcome, status, request_id)
      VALUES (now() - interval '366 days', ${owner.workspaceId}, 'user', ${owner.userId}, 'POST /old', 'success', 200, 'old')`.execute(
      platform.runtime.db,
    );
    assert.equal(
      await purgeExpiredAuditEvents({ db: platform.runtime.db, logger: platform.logger, retentionDays: 365 }),
      1,
    );
    assert.deepEqual(
      idsOf(await list(owner.auth, '')),
      entries.map((entry) => entry.id),
    );
  });

  it('holds no secret: pg_dump of audit_events after writing a provider key, an MCP secret and a token', async () => {
    const secrets = [
      `sk-audit-${crypto.randomBytes(12).toString('hex')}`,
      `mcp-${crypto.randomBytes(12).toString('hex')}`,
    ];
    const key = await call(owner.auth, 'put', '/api/workspaces/current/integrations/openai', { api_key: secrets[0] });
    assert.equal(key.status, 200, key.text);
    const server = await call(owner.auth, 'post', '/api/v1/mcp-servers', {
      name: 'audited',
      transport: 'http',
      config: { url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: secrets[1],
    });
    assert.equal(server.status, 201, server.text);
    // Every route that hands out a token (personal, service) is asked for one.
    for (const spec of API_ROUTES.filter((r) => r.method === 'post' && /tokens$/.test(r.path))) {
      const res = await call(owner.auth, 'post', spec.path, { name: 'audited' });
      assert.equal(res.status, 201, `${spec.path}: ${res.text}`);
      secrets.push(res.body.token ?? res.body.data.token);
    }
    const { stdout } = await promisify(execFile)(
      `${postgresBinDir()}/pg_dump`,
      ['--data-only', '--table=audit_events', '--dbname', platform.config.DATABASE_URL ?? ''],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    assert.match(stdout, /PUT \/api\/workspaces\/current\/integrations\/:provider/);
    assert.match(stdout, /POST \/api\/v1\/mcp-servers/);
    for (const secret of secrets) assert.equal(stdout.includes(secret), false);
  });
});

const statusAndDetails = (res: request.Response): [number, unknown] => [res.status, res.body.error?.details];
