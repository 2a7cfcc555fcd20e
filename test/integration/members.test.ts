import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { sql } from 'kysely';
import { ensureUser } from '../../db/account.repository';
import { upsertMembership } from '../../db/member.repository';
import { issueToken } from '../../lib/api-tokens';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const MEMBERS = '/api/workspaces/current/members';

describe('workspace members', () => {
  let platform: TestPlatform;
  let owner: Tenant;

  const call = (
    auth: Record<string, string>,
    method: 'get' | 'post' | 'patch' | 'delete',
    path: string,
    body?: object,
  ) => {
    const req = request(platform.app)[method](path).set(auth);
    return body ? req.send(body) : req;
  };
  // A member of the owner's workspace with `role`, and a token for them.
  const join = async (role: string): Promise<{ userId: string; auth: { Authorization: string } }> => {
    const email = `m-${crypto.randomBytes(4).toString('hex')}@example.test`;
    const user = await ensureUser(platform.runtime.db, email, email);
    await upsertMembership(platform.runtime.db, owner.workspaceId, user.id, role);
    const { token } = await issueToken(platform.runtime.db, {
      userId: user.id,
      workspaceId: owner.workspaceId,
      name: 't',
    });
    return { userId: user.id, auth: { Authorization: `Bearer ${token}` } };
  };

  before(async () => {
    platform = await createTestPlatform(await harness());
    owner = await createTenant(platform.runtime.db, 'owner');
  });
  after(async () => platform?.close());

  it('adds an existing user by e-mail, with no invite token, and lists them', async () => {
    const other = await createTenant(platform.runtime.db, 'owner');
    const email = (
      await platform.runtime.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', other.userId)
        .executeTakeFirstOrThrow()
    ).email;
    const res = await call(owner.auth, 'post', MEMBERS, { email, role: 'builder' }).expect(201);
    assert.equal(res.body.data.user_id, other.userId);
    assert.equal(res.body.data.role, 'builder');
    assert.equal(res.body.data.invite_token, undefined);
    const list = await call(owner.auth, 'get', `${MEMBERS}?limit=500`).expect(200);
    assert.ok(list.body.data.some((m: { user_id: string }) => m.user_id === other.userId));
    await call({ ...other.auth, 'X-Workspace-Id': owner.workspaceId }, 'get', '/api/ai-agents').expect(200);
    assert.equal(
      (await call(owner.auth, 'post', MEMBERS, { email, role: 'viewer' }).expect(409)).body.error.code,
      'conflict',
    );
  });

  it('creates a new user with an invite token that works in this workspace, shown once and stored hashed', async () => {
    const email = `new-${crypto.randomBytes(4).toString('hex')}@example.test`;
    const res = await call(owner.auth, 'post', MEMBERS, { email, role: 'viewer' }).expect(201);
    const token: string = res.body.data.invite_token;
    assert.match(token, /^assay_/);
    await call({ Authorization: `Bearer ${token}` }, 'get', '/api/ai-agents').expect(200);
    await call({ Authorization: `Bearer ${token}` }, 'post', '/api/ai-agents', {
      name: 'a',
      model: 'gpt-4o',
      instructions: 'x',
    }).expect(403);
    const stored = await platform.runtime.db
      .selectFrom('api_tokens')
      .select(['token_hash', 'expires_at'])
      .where('prefix', '=', token.slice(0, 12))
      .executeTakeFirstOrThrow();
    assert.notEqual(stored.token_hash, token);
    const days = ((stored.expires_at?.getTime() ?? 0) - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `expires in ${days} days`);
    const list = await call(owner.auth, 'get', `${MEMBERS}?limit=500`).expect(200);
    assert.equal(JSON.stringify(list.body).includes(token), false);
  });

  it('refuses a bad e-mail or role with a 422 naming the field', async () => {
    const bad = await call(owner.auth, 'post', MEMBERS, { email: 'not-an-email', role: 'viewer' }).expect(422);
    assert.equal(bad.body.error.details[0].field, 'email');
    const role = await call(owner.auth, 'post', MEMBERS, { email: 'x@example.test', role: 'god' }).expect(422);
    assert.equal(role.body.error.details[0].field, 'role');
  });

  it('answers 409 last_owner when the last owner is removed or demoted, and lets it go once another owner exists', async () => {
    const solo = await createTenant(platform.runtime.db, 'owner');
    const demote = await call(solo.auth, 'patch', `${MEMBERS}/${solo.userId}`, { role: 'admin' }).expect(409);
    assert.equal(demote.body.error.code, 'last_owner');
    assert.equal(
      (await call(solo.auth, 'delete', `${MEMBERS}/${solo.userId}`).expect(409)).body.error.code,
      'last_owner',
    );
    const email = `co-${crypto.randomBytes(4).toString('hex')}@example.test`;
    const co = (await call(solo.auth, 'post', MEMBERS, { email, role: 'owner' }).expect(201)).body.data;
    await call(solo.auth, 'patch', `${MEMBERS}/${co.user_id}`, { role: 'admin' }).expect(200);
    await call(solo.auth, 'patch', `${MEMBERS}/${co.user_id}`, { role: 'owner' }).expect(200);
    await call(solo.auth, 'delete', `${MEMBERS}/${co.user_id}`).expect(204);
    await call(solo.auth, 'delete', `${MEMBERS}/${co.user_id}`).expect(404);
  });

  it('lets an admin manage members but never grant or take away owner', async () => {
    const admin = await join('admin');
    const email = `by-admin-${crypto.randomBytes(4).toString('hex')}@example.test`;
    assert.equal(
      (await call(admin.auth, 'post', MEMBERS, { email, role: 'owner' }).expect(403)).body.error.code,
      'forbidden',
    );
    const member = (await call(admin.auth, 'post', MEMBERS, { email, role: 'viewer' }).expect(201)).body.data;
    await call(admin.auth, 'patch', `${MEMBERS}/${member.user_id}`, { role: 'owner' }).expect(403);
    await call(admin.auth, 'patch', `${MEMBERS}/${owner.userId}`, { role: 'viewer' }).expect(403);
    await call(admin.auth, 'delete', `${MEMBERS}/${owner.userId}`).expect(403);
    await call(admin.auth, 'patch', `${MEMBERS}/${member.user_id}`, { role: 'builder' }).expect(200);
    const builder = await join('builder');
    await call(builder.auth, 'get', MEMBERS).expect(403);
  });

  it('applies a demotion on the very next request of the demoted member', async () => {
    const admin = await join('admin');
    await call(admin.auth, 'get', MEMBERS).expect(200);
    await call(owner.auth, 'patch', `${MEMBERS}/${admin.userId}`, { role: 'viewer' }).expect(200);
    await call(admin.auth, 'get', MEMBERS).expect(403);
    await call(owner.auth, 'delete', `${MEMBERS}/${admin.userId}`).expect(204);
    await call(admin.auth, 'get', '/api/ai-agents').expect(403);
  });

  it("reads the caller's role under the owners' lock: an owner demoted while their grant waits cannot grant owner", async () => {
    const db = platform.runtime.db;
    const granter = await join('owner');
    const grantee = await join('admin');
    const waitingForLock = async (): Promise<void> => {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
        const { rows } = await sql<{ waiting: string }>`
          SELECT count(*) AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
        if (Number(rows[0].waiting) > 0) return;
      }
      assert.fail('the grant never waited for the owners lock');
    };
    let grant: Promise<request.Response> | undefined;
    await db.transaction().execute(async (trx) => {
      // Another owner's change holds the owner rows: the grant below waits, then demotes its caller before it runs.
      await trx
        .selectFrom('memberships')
        .select('user_id')
        .where('workspace_id', '=', owner.workspaceId)
        .where('role', '=', 'owner')
        .forUpdate()
        .execute();
      grant = call(granter.auth, 'patch', `${MEMBERS}/${grantee.userId}`, { role: 'owner' }).then((res) => res);
      await waitingForLock();
      await trx
        .updateTable('memberships')
        .set({ role: 'admin' })
        .where('workspace_id', '=', owner.workspaceId)
        .where('user_id', '=', granter.userId)
        .execute();
    });
    const res = await grant!;
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'forbidden');
    const members = await call(owner.auth, 'get', `${MEMBERS}?limit=500`).expect(200);
    const roleOf = (id: string): string => members.body.data.find((m: { user_id: string }) => m.user_id === id).role;
    assert.deepEqual([roleOf(granter.userId), roleOf(grantee.userId)], ['admin', 'admin']);
  });

  it('answers 404 for a member id that is not a UUID or not a member', async () => {
    await call(owner.auth, 'patch', `${MEMBERS}/nope`, { role: 'viewer' }).expect(404);
    await call(owner.auth, 'delete', `${MEMBERS}/${crypto.randomUUID()}`).expect(404);
  });
});
