import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { upsertMembership } from '../../db/member.repository';
import { LIMITS } from '../../domain/limits';
import { generateToken, issueToken } from '../../lib/api-tokens';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const bearer = (token: string): { Authorization: string } => ({ Authorization: `Bearer ${token}` });

describe('a token scoped to one workspace reaches only the tokens of that scope', () => {
  let platform: TestPlatform;
  let teamA: Tenant;
  let teamB: Tenant;

  const db = (): TestPlatform['runtime']['db'] => platform.runtime.db;
  const mint = (token: string): request.Test =>
    request(platform.app).post('/api/tokens').set(bearer(token)).send({ name: 'minted' });
  const idOf = async (token: string): Promise<string> =>
    (
      await db()
        .selectFrom('api_tokens')
        .select('id')
        .where('prefix', '=', token.slice(0, 12))
        .executeTakeFirstOrThrow()
    ).id;
  const agentsIn = (token: string, workspaceId: string): request.Test =>
    request(platform.app).get('/api/ai-agents').set(bearer(token)).set('X-Workspace-Id', workspaceId);

  before(async () => {
    platform = await createTestPlatform(await harness());
    teamA = await createTenant(db(), 'owner');
    teamB = await createTenant(db(), 'owner');
  });
  after(async () => platform?.close());

  it("lists, revokes and counts against the quota only its own scope's tokens, never another workspace's", async () => {
    const email = `both-${crypto.randomBytes(4).toString('hex')}@victim.test`;
    const invited = (
      await request(platform.app)
        .post('/api/workspaces/current/members')
        .set(teamA.auth)
        .send({ email, role: 'admin' })
        .expect(201)
    ).body.data;
    const inA = { invite: invited.invite_token as string, minted: (await mint(invited.invite_token).expect(201)).body };
    const aIds = [await idOf(inA.invite), inA.minted.data.id as string];
    // The same person in B, holding a token scoped to B (what B's admin once received for them).
    await upsertMembership(db(), teamB.workspaceId, invited.user_id, 'admin');
    const { id: bId, token: inB } = await issueToken(db(), {
      userId: invited.user_id,
      workspaceId: teamB.workspaceId,
      name: 'b',
      scoped: true,
    });

    const listed = await request(platform.app).get('/api/tokens?limit=500').set(bearer(inB)).expect(200);
    assert.deepEqual(
      listed.body.data.map((t: { id: string }) => t.id),
      [bId],
      'the B-scoped token lists B-scoped tokens only',
    );

    // A's scope full: A's tokens can mint no more, B's count against B's scope only.
    const fill = Array.from({ length: LIMITS.activeTokensPerOwner - aIds.length }, (_, i) => {
      const { hash, prefix } = generateToken();
      const scope = { default_workspace_id: teamA.workspaceId, scope_workspace_id: teamA.workspaceId };
      return { user_id: invited.user_id, ...scope, name: `a${i}`, token_hash: hash, prefix, expires_at: null };
    });
    await db().insertInto('api_tokens').values(fill).execute();
    assert.equal((await mint(inA.invite).expect(422)).body.error.details[0].limit, 'activeTokensPerOwner');
    const childOfB = (await mint(inB).expect(201)).body.data;

    for (const id of aIds) {
      const refused = await request(platform.app).delete(`/api/tokens/${id}`).set(bearer(inB)).expect(404);
      assert.equal(refused.body.error.code, 'not_found', 'another scope’s token is not found');
    }
    await agentsIn(inA.invite, teamA.workspaceId).expect(200);
    await agentsIn(inA.minted.data.token, teamA.workspaceId).expect(200);

    // Within its scope a revocation still takes what was minted from the revoked token.
    await request(platform.app).delete(`/api/tokens/${bId}`).set(bearer(inB)).expect(204);
    await agentsIn(childOfB.token, teamB.workspaceId).expect(401);
    await agentsIn(inA.invite, teamA.workspaceId).expect(200);
  });
});
