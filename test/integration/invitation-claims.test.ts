import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const MEMBERS = '/api/workspaces/current/members';
const CLAIM = '/api/invitations/claim';
const DAY_MS = 86_400_000;
const bearer = (token: string): { Authorization: string } => ({ Authorization: `Bearer ${token}` });
const freshEmail = (label: string): string => `${label}-${crypto.randomBytes(4).toString('hex')}@victim.test`;

describe('adding a person who already exists hands the inviter a claim, never a token', () => {
  let platform: TestPlatform;
  let teamA: Tenant;
  let teamB: Tenant;

  const db = (): TestPlatform['runtime']['db'] => platform.runtime.db;
  const add = async (inviter: Tenant, email: string, role = 'admin'): Promise<any> =>
    (await request(platform.app).post(MEMBERS).set(inviter.auth).send({ email, role }).expect(201)).body.data;
  const redeem = (token: string, code: string): request.Test =>
    request(platform.app).post(CLAIM).set(bearer(token)).send({ code });
  const agentsIn = (token: string, workspaceId: string): request.Test =>
    request(platform.app).get('/api/ai-agents').set(bearer(token)).set('X-Workspace-Id', workspaceId);
  // A person invited to A (holding only A's invitation token) whom B's admin then adds to B.
  const invitedToBoth = async (): Promise<{ inA: any; inB: any }> => {
    const email = freshEmail('both');
    const inA = await add(teamA, email);
    return { inA, inB: await add(teamB, email) };
  };

  before(async () => {
    platform = await createTestPlatform(await harness());
    teamA = await createTenant(db(), 'owner');
    teamB = await createTenant(db(), 'owner');
  });
  after(async () => platform?.close());

  it('answers B’s admin with a one-time claim for the person, expiring in 7 days, stored only as its hash', async () => {
    const { inA, inB } = await invitedToBoth();
    assert.equal(inB.invite_token, undefined, 'the inviter of a person who exists gets no token for them');
    assert.equal(inB.user_id, inA.user_id);
    assert.match(inB.claim.code, /^assay_claim_/);
    const days = (Date.parse(inB.claim.expires_at) - Date.now()) / DAY_MS;
    assert.ok(days > 6.9 && days <= 7, `expires in ${days} days`);
    const stored = await db()
      .selectFrom('invitation_claims')
      .selectAll()
      .where('user_id', '=', inB.user_id)
      .where('workspace_id', '=', teamB.workspaceId)
      .executeTakeFirstOrThrow();
    assert.equal(JSON.stringify(stored).includes(inB.claim.code), false, 'the claim code is not stored in plain');
    const before = await db().selectFrom('api_tokens').select('id').where('user_id', '=', inB.user_id).execute();
    assert.equal(before.length, 1, 'adding to B made no token: the person holds A’s invitation alone');
  });

  it('lets only the person redeem the claim, once, for a token of their own that acts in B alone', async () => {
    const { inA, inB } = await invitedToBoth();
    for (const stranger of [teamB.token, teamA.token, (await add(teamA, freshEmail('other'))).invite_token]) {
      const refused = await redeem(stranger, inB.claim.code).expect(404);
      assert.equal(refused.body.error.code, 'not_found', 'another person’s token cannot redeem the claim');
    }
    const service = await request(platform.app)
      .post('/api/workspaces/current/service-tokens')
      .set(teamB.auth)
      .send({ name: 'ci' })
      .expect(201);
    await redeem(service.body.data.token, inB.claim.code).expect(403);

    const claimed = (await redeem(inA.invite_token, inB.claim.code).expect(201)).body.data;
    assert.equal(claimed.workspace_id, teamB.workspaceId);
    assert.match(claimed.token, /^assay_/);
    await agentsIn(claimed.token, teamB.workspaceId).expect(200);
    assert.equal((await agentsIn(claimed.token, teamA.workspaceId).expect(403)).body.error.code, 'forbidden');
    await agentsIn(inA.invite_token, teamA.workspaceId).expect(200);
    const inviteExpiry = Date.parse(
      (await request(platform.app).get('/api/tokens').set(bearer(inA.invite_token)).expect(200)).body.data[0]
        .expires_at,
    );
    assert.ok(Date.parse(claimed.expires_at) <= inviteExpiry, 'redeemed with a scoped token: expires no later');

    const replay = await redeem(inA.invite_token, inB.claim.code).expect(404);
    assert.equal(replay.body.error.code, 'not_found', 'a claim is redeemed once');
    await redeem(claimed.token, inB.claim.code).expect(404);
  });

  it('redeems a claim once when two redemptions race', async () => {
    const { inA, inB } = await invitedToBoth();
    const answers = await Promise.all([1, 2].map(() => redeem(inA.invite_token, inB.claim.code).then((r) => r.status)));
    assert.deepEqual(answers.sort(), [201, 404]);
    const claimed = await db()
      .selectFrom('api_tokens')
      .select('id')
      .where('scope_workspace_id', '=', teamB.workspaceId);
    assert.equal((await claimed.where('user_id', '=', inB.user_id).execute()).length, 1);
  });

  it('refuses a claim past its expiry, one whose person is no longer a member, and one a newer claim replaced', async () => {
    const expired = await invitedToBoth();
    await db()
      .updateTable('invitation_claims')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('user_id', '=', expired.inB.user_id)
      .execute();
    await redeem(expired.inA.invite_token, expired.inB.claim.code).expect(404);

    const removed = await invitedToBoth();
    await request(platform.app).delete(`${MEMBERS}/${removed.inB.user_id}`).set(teamB.auth).expect(204);
    await redeem(removed.inA.invite_token, removed.inB.claim.code).expect(404);
    // Added again: a new claim replaces the old one, which stays refused.
    const again = await add(teamB, removed.inA.email);
    await redeem(removed.inA.invite_token, removed.inB.claim.code).expect(404);
    await redeem(removed.inA.invite_token, again.claim.code).expect(201);
  });

  it('still gives a brand-new person their first token, for the inviting workspace only', async () => {
    const added = await add(teamB, freshEmail('new'), 'viewer');
    assert.match(added.invite_token, /^assay_/);
    assert.equal(added.claim, undefined);
    await agentsIn(added.invite_token, teamB.workspaceId).expect(200);
  });
});
