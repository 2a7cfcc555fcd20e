import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { runAssay } from '../helpers/assay-cli';
import { harness } from '../helpers/harness';
import { appWithConfig, createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const MEMBERS = '/api/workspaces/current/members';
const DAY_MS = 86_400_000;
const bearer = (token: string): { Authorization: string } => ({ Authorization: `Bearer ${token}` });
const freshEmail = (label: string): string => `${label}-${crypto.randomBytes(4).toString('hex')}@victim.test`;

describe('invitations are credentials for one workspace', () => {
  let platform: TestPlatform;
  let teamA: Tenant;
  let teamB: Tenant;

  const invite = async (inviter: Tenant, email: string, role: string): Promise<any> =>
    (await request(platform.app).post(MEMBERS).set(inviter.auth).send({ email, role }).expect(201)).body.data;
  const mint = async (token: string, body: object = { name: 'minted' }): Promise<any> =>
    (await request(platform.app).post('/api/tokens').set(bearer(token)).send(body).expect(201)).body.data;
  const agentsIn = (token: string, workspaceId: string): request.Test =>
    request(platform.app).get('/api/ai-agents').set(bearer(token)).set('X-Workspace-Id', workspaceId);

  const appWith = (config: Partial<TestPlatform['config']>): ReturnType<typeof appWithConfig> =>
    appWithConfig(platform, config);

  before(async () => {
    platform = await createTestPlatform(await harness());
    teamA = await createTenant(platform.runtime.db, 'owner');
    teamB = await createTenant(platform.runtime.db, 'owner');
  });
  after(async () => platform?.close());

  it('gives the inviter of A nothing in B: tokens minted with the invitation stay in A and expire with it', async () => {
    const email = freshEmail('cfo');
    const invited = await invite(teamA, email, 'admin');
    const fromInvite = await mint(invited.invite_token, { name: 'forever' });
    const inviteExpiry = await platform.runtime.db
      .selectFrom('api_tokens')
      .select('expires_at')
      .where('prefix', '=', invited.invite_token.slice(0, 12))
      .executeTakeFirstOrThrow();
    assert.ok(fromInvite.expires_at !== null, 'a token minted with an invitation expires');
    assert.ok(Date.parse(fromInvite.expires_at) <= (inviteExpiry.expires_at?.getTime() ?? 0));
    await agentsIn(fromInvite.token, teamA.workspaceId).expect(200);

    const inB = await invite(teamB, email, 'admin');
    assert.equal(inB.user_id, invited.user_id);
    // B's admin gets a claim, not a token: the person redeems it with a token of their own.
    const claim = request(platform.app).post('/api/invitations/claim').set(bearer(invited.invite_token));
    inB.invite_token = (await claim.send({ code: inB.claim.code }).expect(201)).body.data.token;
    assert.match(inB.invite_token, /^assay_/, 'B hands B’s access to the person, with a token of its own');
    for (const token of [invited.invite_token, fromInvite.token]) {
      const refused = await agentsIn(token, teamB.workspaceId).expect(403);
      assert.equal(refused.body.error.code, 'forbidden');
    }
    await agentsIn(inB.invite_token, teamB.workspaceId).expect(200);
    await agentsIn(inB.invite_token, teamA.workspaceId).expect(403);
    const me = await request(platform.app).get('/api/me').set(bearer(inB.invite_token)).expect(200);
    assert.deepEqual(
      me.body.data.memberships.map((m: { workspace_id: string }) => m.workspace_id),
      [teamB.workspaceId],
    );
    const listed = await request(platform.app).get('/api/workspaces').set(bearer(inB.invite_token)).expect(200);
    assert.deepEqual(
      listed.body.data.map((w: { id: string; role: string }) => [w.id, w.role]),
      [[teamB.workspaceId, 'admin']],
    );
    const minted = await mint(inB.invite_token);
    assert.equal((await agentsIn(minted.token, teamA.workspaceId).expect(403)).body.error.code, 'forbidden');
    await request(platform.app)
      .patch(`/api/workspaces/${teamA.workspaceId}`)
      .set(bearer(inB.invite_token))
      .send({ name: 'taken' })
      .expect(403);
  });

  it('revokes every token minted with an invitation when the invitation is revoked', async () => {
    const invited = await invite(teamA, freshEmail('revoked'), 'viewer');
    const child = await mint(invited.invite_token);
    const grandchild = await mint(child.token);
    const { id } = await platform.runtime.db
      .selectFrom('api_tokens')
      .select('id')
      .where('prefix', '=', invited.invite_token.slice(0, 12))
      .executeTakeFirstOrThrow();
    await request(platform.app).delete(`/api/tokens/${id}`).set(bearer(invited.invite_token)).expect(204);
    for (const token of [child.token, grandchild.token])
      assert.equal(
        (await request(platform.app).get('/api/me').set(bearer(token)).expect(401)).body.error.code,
        'unauthorized',
      );
  });

  it('gives every personal token at most TOKEN_MAX_DAYS (90 by default), and none when the operator says so', async () => {
    const plain = await mint(teamA.token);
    const days = (Date.parse(plain.expires_at) - Date.now()) / DAY_MS;
    assert.ok(days > 89.9 && days <= 90, `expires in ${days} days`);
    const over = await request(platform.app)
      .post('/api/tokens')
      .set(teamA.auth)
      .send({ name: 'long', expires_in_days: 91 })
      .expect(422);
    assert.equal(over.body.error.details[0].field, 'expires_in_days');
    assert.match(over.body.error.message, /TOKEN_MAX_DAYS/);

    const unbounded = appWith({ TOKEN_MAX_DAYS: 'none' });
    const forever = await request(unbounded).post('/api/tokens').set(teamA.auth).send({ name: 'ci' }).expect(201);
    assert.equal(forever.body.data.expires_at, null);
    const service = await request(platform.app)
      .post('/api/workspaces/current/service-tokens')
      .set(teamA.auth)
      .send({ name: 'ci', expires_in_days: 365 })
      .expect(201);
    assert.ok(Date.parse(service.body.data.expires_at) > Date.now() + 364 * DAY_MS, 'service tokens keep their rules');
  });

  it('refuses to make an invited user an operator from the command line unless --force says so', async () => {
    const email = freshEmail('ops');
    const invited = await invite(teamA, email, 'viewer');
    const env = { DATABASE_URL: platform.config.DATABASE_URL };
    const args = ['token', 'create', '--email', email, '--workspace', teamA.workspaceId, '--role', 'viewer'];
    const refused = await runAssay([...args, '--operator'], env);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /created by an invitation/);
    assert.match(refused.stderr, /--force/);
    const user = platform.runtime.db.selectFrom('users').select('operator').where('email', '=', email);
    assert.equal((await user.executeTakeFirstOrThrow()).operator, false);

    const forced = await runAssay([...args, '--operator', '--force'], env);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(JSON.parse(forced.stdout).operator, true);
    // The codec decrypts every workspace: the operator's own token opens it, the invitation's never does.
    const ui = 'http://127.0.0.1:8233';
    const codec = appWith({ TEMPORAL_CODEC_ORIGINS: [ui] });
    const decode = (token: string): request.Test =>
      request(codec).post('/codec/decode').set('Origin', ui).set(bearer(token)).send({ payloads: [] });
    await decode(JSON.parse(forced.stdout).token).expect(200);
    await decode(invited.invite_token).expect(403);
  });
});
