import assert from 'node:assert/strict';
import request from 'supertest';
import { createWorkspace } from '../../db/workspace.repository';
import { LIMITS } from '../../domain/limits';
import { generateToken, hashToken } from '../../lib/api-tokens';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { openRelay, serveWithRelay, type RelayClient } from '../helpers/relay-client';
import { createTenant, type Tenant } from '../helpers/tenants';

const bearer = (token: string): { Authorization: string } => ({ Authorization: `Bearer ${token}` });

describe('personal and service tokens over HTTP', () => {
  let platform: TestPlatform;
  let owner: Tenant;

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { WS_TOKEN_RECHECK_MS: '200' } });
    owner = await createTenant(platform.runtime.db);
  });
  after(async () => platform?.close());

  const db = (): TestPlatform['runtime']['db'] => platform.runtime.db;
  const createPersonal = async (tenant: Tenant, body: object = { name: 'laptop' }): Promise<any> =>
    (await request(platform.app).post('/api/tokens').set(tenant.auth).send(body).expect(201)).body.data;
  const createService = async (tenant: Tenant, body: object = { name: 'ci' }): Promise<any> =>
    (await request(platform.app).post('/api/workspaces/current/service-tokens').set(tenant.auth).send(body).expect(201))
      .body.data;
  const expect401 = async (token: string): Promise<void> => {
    const res = await request(platform.app).get('/api/ai-agents').set(bearer(token)).expect(401);
    assert.equal(res.body.error.code, 'unauthorized');
  };

  describe('personal tokens', () => {
    it('creates a token shown once, stored only as its SHA-256 hash, that authenticates as the caller', async () => {
      const created = await createPersonal(owner, { name: 'laptop', expires_in_days: 30 });
      assert.match(created.token, /^assay_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.prefix, created.token.slice(0, 12));
      assert.equal(created.name, 'laptop');
      const expiresIn = Date.parse(created.expires_at) - Date.now();
      assert.ok(expiresIn > 29 * 86_400_000 && expiresIn <= 30 * 86_400_000, created.expires_at);

      const row = await db()
        .selectFrom('api_tokens')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.token_hash, hashToken(created.token));
      assert.ok(!JSON.stringify(row).includes(created.token.slice(6)), 'the plain token is nowhere in the row');

      const me = await request(platform.app).get('/api/me').set(bearer(created.token)).expect(200);
      assert.equal(me.body.data.user.id, owner.userId);
      assert.deepEqual(me.body.data.actor, { type: 'user', id: owner.userId });
    });

    it('lists the caller’s tokens in pages, newest first, never the token itself', async () => {
      const tenant = await createTenant(db());
      const made: Array<{ id: string; token: string }> = [];
      for (const name of ['one', 'two', 'three']) made.push(await createPersonal(tenant, { name }));
      const first = await request(platform.app).get('/api/tokens?limit=2').set(tenant.auth).expect(200);
      assert.deepEqual(
        first.body.data.map((t: any) => t.name),
        ['three', 'two'],
      );
      assert.ok(first.body.next_cursor);
      const second = await request(platform.app)
        .get(`/api/tokens?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`)
        .set(tenant.auth)
        .expect(200);
      // The tenant's own bootstrap token is the oldest.
      assert.deepEqual(
        second.body.data.map((t: any) => t.name),
        ['one', 'test'],
      );
      assert.equal(second.body.next_cursor, null);
      assert.deepEqual(Object.keys(first.body.data[0]).sort(), [
        'created_at',
        'expires_at',
        'id',
        'last_used_at',
        'name',
        'prefix',
        'revoked_at',
      ]);
      const text = first.text + second.text;
      for (const { token } of made) assert.ok(!text.includes(token.slice(12)), 'no token in the list');
      const others = await request(platform.app).get('/api/tokens').set(owner.auth).expect(200);
      assert.ok(!others.body.data.some((t: any) => made.some((m) => m.id === t.id)), 'only the caller’s tokens');
    });

    it('revokes a token: the next request with it is 401; revoking again is 204; another user’s token is 404', async () => {
      const tenant = await createTenant(db());
      const created = await createPersonal(tenant);
      await request(platform.app).get('/api/ai-agents').set(bearer(created.token)).expect(200);
      await request(platform.app).delete(`/api/tokens/${created.id}`).set(tenant.auth).expect(204);
      await expect401(created.token);
      await request(platform.app).delete(`/api/tokens/${created.id}`).set(tenant.auth).expect(204);
      const listed = await request(platform.app).get('/api/tokens').set(tenant.auth).expect(200);
      assert.ok(listed.body.data.find((t: any) => t.id === created.id).revoked_at);

      const mine = await createPersonal(tenant);
      const res = await request(platform.app).delete(`/api/tokens/${mine.id}`).set(owner.auth).expect(404);
      assert.equal(res.body.error.code, 'not_found');
      await request(platform.app).get('/api/ai-agents').set(bearer(mine.token)).expect(200);
      await request(platform.app).delete('/api/tokens/not-a-uuid').set(tenant.auth).expect(404);
    });

    it('answers 401 for a personal token past its expiry', async () => {
      const created = await createPersonal(owner, { name: 'short', expires_in_days: 1 });
      await request(platform.app).get('/api/ai-agents').set(bearer(created.token)).expect(200);
      await db()
        .updateTable('api_tokens')
        .set({ expires_at: new Date(Date.now() - 1_000) })
        .where('id', '=', created.id)
        .execute();
      await expect401(created.token);
    });

    it('refuses a bad body with 422 naming the field, and writes nothing', async () => {
      const tenant = await createTenant(db());
      for (const [body, field] of [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 'ok', expires_in_days: 0 }, 'expires_in_days'],
        [{ name: 'ok', expires_in_days: 1.5 }, 'expires_in_days'],
        [{ name: 'ok', extra: true }, '(body)'],
      ] as const) {
        const res = await request(platform.app).post('/api/tokens').set(tenant.auth).send(body).expect(422);
        assert.equal(res.body.error.code, 'validation_failed');
        assert.equal(res.body.error.details[0].field, field, JSON.stringify(body));
      }
      const rows = await db().selectFrom('api_tokens').select('id').where('user_id', '=', tenant.userId).execute();
      assert.equal(rows.length, 1);
    });

    it('refuses a token over activeTokensPerOwner, and takes one again once one is revoked', async () => {
      const tenant = await createTenant(db());
      const rows = Array.from({ length: LIMITS.activeTokensPerOwner - 1 }, (_, i) => {
        const { hash, prefix } = generateToken();
        return {
          user_id: tenant.userId,
          default_workspace_id: tenant.workspaceId,
          name: `t${i}`,
          token_hash: hash,
          prefix,
          expires_at: null,
        };
      });
      await db().insertInto('api_tokens').values(rows).execute();
      const res = await request(platform.app).post('/api/tokens').set(tenant.auth).send({ name: 'over' }).expect(422);
      assert.equal(res.body.error.details[0].limit, 'activeTokensPerOwner');
      assert.equal(res.body.error.details[0].max, LIMITS.activeTokensPerOwner);
      const victim = await db()
        .selectFrom('api_tokens')
        .select('id')
        .where('name', '=', 't0')
        .where('user_id', '=', tenant.userId)
        .executeTakeFirstOrThrow();
      await request(platform.app).delete(`/api/tokens/${victim.id}`).set(tenant.auth).expect(204);
      await createPersonal(tenant, { name: 'fits again' });
    });

    it('writes last_used_at on use, at most once a minute', async () => {
      const created = await createPersonal(owner);
      const read = async (): Promise<Date | null> =>
        (
          await db()
            .selectFrom('api_tokens')
            .select('last_used_at')
            .where('id', '=', created.id)
            .executeTakeFirstOrThrow()
        ).last_used_at;
      assert.equal(await read(), null);
      await request(platform.app).get('/api/ai-agents').set(bearer(created.token)).expect(200);
      const first = await read();
      assert.ok(first);
      await request(platform.app).get('/api/ai-agents').set(bearer(created.token)).expect(200);
      assert.equal((await read())?.getTime(), first.getTime());
      const earlier = new Date(Date.now() - 61_000);
      await db().updateTable('api_tokens').set({ last_used_at: earlier }).where('id', '=', created.id).execute();
      await request(platform.app).get('/api/ai-agents').set(bearer(created.token)).expect(200);
      assert.ok(((await read())?.getTime() ?? 0) > earlier.getTime());
    });
  });

  describe('service tokens', () => {
    it('creates a builder token by default that acts in its workspace with that role', async () => {
      const created = await createService(owner);
      assert.match(created.token, /^assay_svc_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.role, 'builder');
      assert.equal(created.prefix, created.token.slice(0, 16));
      const row = await db()
        .selectFrom('service_tokens')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.token_hash, hashToken(created.token));
      assert.equal(row.workspace_id, owner.workspaceId);
      assert.equal(row.created_by, owner.userId);

      await request(platform.app)
        .post('/api/ai-agents')
        .set(bearer(created.token))
        .send({ name: `svc-${created.id.slice(0, 8)}`, model: 'gpt-4o', instructions: '' })
        .expect(201);
      const denied = await request(platform.app)
        .get('/api/workspaces/current/service-tokens')
        .set(bearer(created.token))
        .expect(403);
      assert.equal(denied.body.error.details.permission, 'service_tokens:manage');
    });

    it('refuses role owner with 422 naming role, and writes nothing', async () => {
      const tenant = await createTenant(db());
      for (const role of ['owner', 'root']) {
        const res = await request(platform.app)
          .post('/api/workspaces/current/service-tokens')
          .set(tenant.auth)
          .send({ name: 'ci', role })
          .expect(422);
        assert.equal(res.body.error.details[0].field, 'role');
        if (role === 'owner') assert.match(res.body.error.message, /cannot be owner/);
      }
      const rows = await db()
        .selectFrom('service_tokens')
        .select('id')
        .where('workspace_id', '=', tenant.workspaceId)
        .execute();
      assert.deepEqual(rows, []);
    });

    it('is managed by owners and admins only', async () => {
      const builder = await createTenant(db(), 'builder');
      const res = await request(platform.app)
        .post('/api/workspaces/current/service-tokens')
        .set(builder.auth)
        .send({ name: 'ci' })
        .expect(403);
      assert.equal(res.body.error.details.permission, 'service_tokens:manage');
      const admin = await createTenant(db(), 'admin');
      assert.equal((await createService(admin, { name: 'ci', role: 'viewer' })).role, 'viewer');
    });

    it('refuses a service token over activeTokensPerOwner per workspace; revoked and expired ones do not count', async () => {
      const tenant = await createTenant(db());
      const row = (name: string, extra: { expires_at?: Date; revoked_at?: Date } = {}): any => ({
        workspace_id: tenant.workspaceId,
        name,
        role: 'builder',
        token_hash: generateToken('assay_svc_').hash,
        prefix: 'assay_svc_xxxxxx',
        created_by: null,
        expires_at: null,
        ...extra,
      });
      const rows = Array.from({ length: LIMITS.activeTokensPerOwner - 1 }, (_, i) => row(`s${i}`));
      rows.push(
        row('revoked', { revoked_at: new Date() }),
        row('expired', { expires_at: new Date(Date.now() - 1_000) }),
      );
      await db().insertInto('service_tokens').values(rows).execute();
      await createService(tenant, { name: 'last place' });
      const res = await request(platform.app)
        .post('/api/workspaces/current/service-tokens')
        .set(tenant.auth)
        .send({ name: 'over' })
        .expect(422);
      assert.equal(res.body.error.details[0].limit, 'activeTokensPerOwner');
      assert.match(res.body.error.message, /this workspace already holds 100 active tokens/);
    });

    it('acts only in its own workspace: another X-Workspace-Id is 403', async () => {
      const created = await createService(owner);
      const other = await createTenant(db());
      const res = await request(platform.app)
        .get('/api/ai-agents')
        .set(bearer(created.token))
        .set('X-Workspace-Id', other.workspaceId)
        .expect(403);
      assert.equal(res.body.error.code, 'forbidden');
      await request(platform.app)
        .get('/api/ai-agents')
        .set(bearer(created.token))
        .set('X-Workspace-Id', owner.workspaceId)
        .expect(200);
    });

    it('answers 401 once revoked, once expired, and once its workspace is deleted', async () => {
      const revoked = await createService(owner);
      await request(platform.app).get('/api/ai-agents').set(bearer(revoked.token)).expect(200);
      await request(platform.app)
        .delete(`/api/workspaces/current/service-tokens/${revoked.id}`)
        .set(owner.auth)
        .expect(204);
      await expect401(revoked.token);

      const expiring = await createService(owner, { name: 'ci', expires_in_days: 1 });
      await db()
        .updateTable('service_tokens')
        .set({ expires_at: new Date(Date.now() - 1_000) })
        .where('id', '=', expiring.id)
        .execute();
      await expect401(expiring.token);

      const tenant = await createTenant(db());
      const orphan = await createService(tenant);
      await db()
        .updateTable('workspaces')
        .set({ deleted_at: new Date() })
        .where('id', '=', tenant.workspaceId)
        .execute();
      await expect401(orphan.token);
    });

    it('lists the workspace’s service tokens in pages without the token; another workspace’s is 404', async () => {
      const tenant = await createTenant(db());
      const made = [await createService(tenant, { name: 'a' }), await createService(tenant, { name: 'b' })];
      const first = await request(platform.app)
        .get('/api/workspaces/current/service-tokens?limit=1')
        .set(tenant.auth)
        .expect(200);
      assert.equal(first.body.data[0].name, 'b');
      assert.equal(first.body.data[0].role, 'builder');
      assert.equal(first.body.data[0].created_by, tenant.userId);
      const second = await request(platform.app)
        .get(`/api/workspaces/current/service-tokens?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`)
        .set(tenant.auth)
        .expect(200);
      assert.equal(second.body.data[0].name, 'a');
      assert.equal(second.body.next_cursor, null);
      for (const { token } of made) assert.ok(!(first.text + second.text).includes(token.slice(16)));
      await request(platform.app)
        .delete(`/api/workspaces/current/service-tokens/${made[0].id}`)
        .set(owner.auth)
        .expect(404);
      await request(platform.app).get('/api/ai-agents').set(bearer(made[0].token)).expect(200);
    });

    it('has no personal tokens: /api/tokens answers 403', async () => {
      const created = await createService(owner, { name: 'ci', role: 'admin' });
      const personal = await createPersonal(owner);
      for (const call of [
        request(platform.app).post('/api/tokens').send({ name: 'x' }),
        request(platform.app).get('/api/tokens'),
        request(platform.app).delete(`/api/tokens/${personal.id}`),
      ]) {
        const res = await call.set(bearer(created.token)).expect(403);
        assert.equal(res.body.error.code, 'forbidden');
        assert.equal(res.body.error.message, 'service tokens have no personal tokens');
      }
      await request(platform.app).get('/api/ai-agents').set(bearer(personal.token)).expect(200);
    });

    it('closes an open WebSocket of a revoked service token with 4401', async () => {
      const api = await serveWithRelay(platform.app, {
        config: platform.config,
        db: db(),
        logger: platform.logger,
      });
      let client: RelayClient | undefined;
      try {
        const created = await createService(owner);
        client = await openRelay(api.wsUrl, { protocolToken: created.token });
        // Served across several re-checks (every 200 ms here) while the token is valid: a check that did not know
        // service tokens would close it at the first one.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        client.send({ type: 'unsubscribe', run_id: 'ping' });
        await client.waitFor((m) => m.type === 'unsubscribed', 10_000);
        await request(platform.app)
          .delete(`/api/workspaces/current/service-tokens/${created.id}`)
          .set(owner.auth)
          .expect(204);
        const closed = await Promise.race([
          client.closed,
          new Promise<never>((_resolve, reject) =>
            setTimeout(() => reject(new Error('still open after 10 s')), 10_000).unref(),
          ),
        ]);
        assert.deepEqual(closed, { code: 4401, reason: 'token revoked or expired' });
      } finally {
        client?.close();
        await api.close();
      }
    });
  });

  describe('GET /api/me', () => {
    it('shows a user, the actor, every workspace with its role and the current one', async () => {
      const second = await createWorkspace(db(), 'zz-second');
      await db()
        .insertInto('memberships')
        .values({ workspace_id: second.id, user_id: owner.userId, role: 'viewer' })
        .execute();
      const res = await request(platform.app).get('/api/me').set(owner.auth).expect(200);
      const me = res.body.data;
      assert.equal(me.user.id, owner.userId);
      assert.match(me.user.email, /@example\.test$/);
      assert.equal(me.user.operator, false);
      assert.deepEqual(me.actor, { type: 'user', id: owner.userId });
      assert.equal(me.current_workspace_id, owner.workspaceId);
      assert.deepEqual(
        me.memberships.map((m: any) => [m.workspace_id, m.role]),
        [
          [owner.workspaceId, 'owner'],
          [second.id, 'viewer'],
        ],
      );
      const switched = await request(platform.app)
        .get('/api/me')
        .set(owner.auth)
        .set('X-Workspace-Id', second.id)
        .expect(200);
      assert.equal(switched.body.data.current_workspace_id, second.id);
    });

    it('shows a service token: no user, its one workspace with its role', async () => {
      const created = await createService(owner, { name: 'ci', role: 'viewer' });
      const res = await request(platform.app).get('/api/me').set(bearer(created.token)).expect(200);
      const workspace = await db()
        .selectFrom('workspaces')
        .select('name')
        .where('id', '=', owner.workspaceId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(res.body.data, {
        user: null,
        actor: { type: 'service_token', id: created.id },
        memberships: [{ workspace_id: owner.workspaceId, name: workspace.name, role: 'viewer' }],
        current_workspace_id: owner.workspaceId,
      });
    });
  });
});
