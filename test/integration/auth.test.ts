import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { findApiTokenByHash, revokeApiToken } from '../../db/api-token.repository';
import { upsertMembership } from '../../db/member.repository';
import { hashToken } from '../../lib/api-tokens';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

describe('authentication and workspace access over HTTP', () => {
  let platform: TestPlatform;
  let owner: Tenant;

  before(async () => {
    platform = await createTestPlatform(await harness());
    owner = await createTenant(platform.runtime.db);
  });
  after(async () => platform?.close());

  const expect401 = async (headers: Record<string, string>): Promise<void> => {
    const res = await request(platform.app).get('/api/ai-agents').set(headers).expect(401);
    assert.equal(res.body.error.code, 'unauthorized');
  };

  it('accepts a valid bearer token', async () => {
    await request(platform.app).get('/api/ai-agents').set(owner.auth).expect(200);
  });

  it('answers 401 without an Authorization header', async () => {
    await expect401({});
  });

  for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'bearer-token', 'Bearer two words', 'Token abc']) {
    it(`answers 401 for the malformed header ${JSON.stringify(header)}`, async () => {
      await expect401({ Authorization: header });
    });
  }

  it('answers 401 for a well-formed token that was never issued', async () => {
    await expect401({ Authorization: `Bearer assay_${crypto.randomBytes(32).toString('base64url')}` });
  });

  it('answers 401 for a revoked token', async () => {
    const tenant = await createTenant(platform.runtime.db);
    await request(platform.app).get('/api/ai-agents').set(tenant.auth).expect(200);
    const stored = await findApiTokenByHash(platform.runtime.db, hashToken(tenant.token));
    assert.ok(stored);
    assert.equal(await revokeApiToken(platform.runtime.db, tenant.userId, stored.id), true);
    await expect401(tenant.auth);
  });

  it('answers 401 for an expired token', async () => {
    const tenant = await createTenant(platform.runtime.db, 'owner', new Date(Date.now() - 60_000));
    await expect401(tenant.auth);
  });

  it('answers 403 when the role lacks the permission, while the same role may read', async () => {
    const viewer = await createTenant(platform.runtime.db, 'viewer');
    await request(platform.app).get('/api/ai-agents').set(viewer.auth).expect(200);
    const res = await request(platform.app)
      .post('/api/ai-agents')
      .set(viewer.auth)
      .send({ name: 'not-allowed', model: 'gpt-4o', instructions: '' })
      .expect(403);
    assert.equal(res.body.error.code, 'forbidden');
    assert.equal(res.body.error.details.permission, 'agents:manage');
    const rows = await platform.runtime.db
      .selectFrom('agents')
      .select('id')
      .where('workspace_id', '=', viewer.workspaceId)
      .execute();
    assert.deepEqual(rows, []);
  });

  it('answers 403 for X-Workspace-Id of a workspace the caller is not a member of', async () => {
    const stranger = await createTenant(platform.runtime.db);
    const res = await request(platform.app)
      .get('/api/ai-agents')
      .set(owner.auth)
      .set('X-Workspace-Id', stranger.workspaceId)
      .expect(403);
    assert.equal(res.body.error.code, 'forbidden');
  });

  it('answers 400 naming the header for an X-Workspace-Id that is not a UUID', async () => {
    const res = await request(platform.app)
      .get('/api/ai-agents')
      .set(owner.auth)
      .set('X-Workspace-Id', 'not-a-uuid')
      .expect(400);
    assert.equal(res.body.error.details.field, 'X-Workspace-Id');
  });

  it('switches to another workspace the caller is a member of, with that membership’s role', async () => {
    const second = await createTenant(platform.runtime.db);
    await upsertMembership(platform.runtime.db, second.workspaceId, owner.userId, 'viewer');
    await request(platform.app)
      .post('/api/ai-agents')
      .set(second.auth)
      .send({ name: 'in-second', model: 'gpt-4o', instructions: '' })
      .expect(201);
    const list = await request(platform.app)
      .get('/api/ai-agents')
      .set(owner.auth)
      .set('X-Workspace-Id', second.workspaceId)
      .expect(200);
    assert.deepEqual(
      list.body.data.map((a: { name: string }) => a.name),
      ['in-second'],
    );
    await request(platform.app)
      .post('/api/ai-agents')
      .set(owner.auth)
      .set('X-Workspace-Id', second.workspaceId)
      .send({ name: 'as-viewer', model: 'gpt-4o', instructions: '' })
      .expect(403);
  });

  describe("another workspace's agent", () => {
    let agentId: string;

    before(async () => {
      const other = await createTenant(platform.runtime.db);
      const created = await request(platform.app)
        .post('/api/ai-agents')
        .set(other.auth)
        .send({ name: 'their-agent', model: 'gpt-4o', instructions: 'theirs' })
        .expect(201);
      agentId = created.body.data.id;
    });

    for (const key of ['id', 'name'] as const) {
      it(`is 404 by ${key} for GET, PATCH, DELETE and publish, and stays untouched`, async () => {
        const ref = key === 'id' ? agentId : 'their-agent';
        const calls = [
          request(platform.app).get(`/api/ai-agents/${ref}`).set(owner.auth),
          request(platform.app).patch(`/api/ai-agents/${ref}`).set(owner.auth).send({ instructions: 'hijacked' }),
          request(platform.app).delete(`/api/ai-agents/${ref}`).set(owner.auth),
          request(platform.app).post(`/api/ai-agents/${ref}/publish`).set(owner.auth),
        ];
        for (const res of await Promise.all(calls)) {
          assert.equal(res.status, 404);
          assert.deepEqual(res.body, { error: { code: 'not_found', message: 'agent not found' } });
        }
        const row = await platform.runtime.db
          .selectFrom('agents')
          .selectAll()
          .where('id', '=', agentId)
          .executeTakeFirstOrThrow();
        assert.equal(row.instructions, 'theirs');
        assert.equal(row.published_version, null);
      });
    }

    it('is absent from the caller’s list', async () => {
      const list = await request(platform.app).get('/api/ai-agents').set(owner.auth).expect(200);
      assert.equal(
        list.body.data.some((a: { id: string }) => a.id === agentId),
        false,
      );
    });
  });

  it('serves /healthz and /readyz without a token', async () => {
    await request(platform.app).get('/healthz').expect(200);
    await request(platform.app).get('/readyz').expect(200);
  });
});
