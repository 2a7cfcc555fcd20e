import assert from 'node:assert/strict';
import request from 'supertest';
import { ensureUser, grantOperator } from '../../db/account.repository';
import { upsertMembership } from '../../db/member.repository';
import { LIMITS } from '../../domain/limits';
import { issueToken } from '../../lib/api-tokens';
import { purgeSteps } from '../../db/workspace-purge.repository';
import { workflowIds } from '../../workflows/temporal-names';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness, type Harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';
import { referencingTables, workspaceParents, workspaceRowCounts } from '../helpers/workspace-rows';

const MAIN_TABLES = [
  'agents',
  'eval_sets',
  'eval_cases',
  'eval_runs',
  'case_results',
  'mcp_servers',
  'integrations',
  'conversations',
];

describe('workspaces: create, list, rename, delete', () => {
  let h: Harness;
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let operator: Tenant;
  let someone: Tenant;

  const call = (tenant: Tenant, method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
    const req = request(platform.app)[method](path).set(tenant.auth);
    return body ? req.send(body) : req;
  };

  before(async () => {
    h = await harness();
    platform = await createTestPlatform(h, { vault: 'openbao', env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(judgeReplies({}));
    operator = await createTenant(platform.runtime.db, 'owner');
    await grantOperator(platform.runtime.db, operator.userId);
    someone = await createTenant(platform.runtime.db, 'owner');
  });
  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it('lets an operator create a workspace, owned by them and listed as theirs', async () => {
    const res = await call(operator, 'post', '/api/workspaces', { name: 'Team Blue' }).expect(201);
    assert.equal(res.body.data.name, 'Team Blue');
    assert.equal(res.body.data.role, 'owner');
    const list = await call(operator, 'get', '/api/workspaces?limit=500').expect(200);
    assert.ok(
      list.body.data.some((w: { id: string; role: string }) => w.id === res.body.data.id && w.role === 'owner'),
    );
    await request(platform.app)
      .get('/api/ai-agents')
      .set({ ...operator.auth, 'X-Workspace-Id': res.body.data.id })
      .expect(200);
  });

  it('refuses a non-operator under the default WORKSPACE_CREATION=operators, and a bad name with a 422', async () => {
    const refused = await call(someone, 'post', '/api/workspaces', { name: 'Mine' }).expect(403);
    assert.equal(refused.body.error.code, 'forbidden');
    const invalid = await call(operator, 'post', '/api/workspaces', { name: '' }).expect(422);
    assert.equal(invalid.body.error.details[0].field, 'name');
  });

  it('lets anyone create a workspace with WORKSPACE_CREATION=anyone', async () => {
    const open = await createTestPlatform(h, { env: { WORKSPACE_CREATION: 'anyone' } });
    try {
      const res = await request(open.app).post('/api/workspaces').set(someone.auth).send({ name: 'Mine' }).expect(201);
      assert.equal(res.body.data.role, 'owner');
    } finally {
      await open.close();
    }
  });

  it('bounds the workspaces one user owns by workspacesPerUser when anyone may create them', async () => {
    const open = await createTestPlatform(h, { env: { WORKSPACE_CREATION: 'anyone' } });
    try {
      const creator = await createTenant(platform.runtime.db, 'owner');
      const create = (name: string): request.Test =>
        request(open.app).post('/api/workspaces').set(creator.auth).send({ name });
      const made: string[] = [];
      for (let i = 1; i < LIMITS.workspacesPerUser; i++)
        made.push((await create(`mine ${i}`).expect(201)).body.data.id);
      const refused = await create('one too many').expect(422);
      assert.equal(refused.body.error.code, 'validation_failed');
      assert.deepEqual(
        { field: refused.body.error.details[0].field, limit: refused.body.error.details[0].limit },
        { field: 'name', limit: 'workspacesPerUser' },
      );
      const listed = await request(open.app).get('/api/workspaces?limit=500').set(creator.auth).expect(200);
      assert.equal(listed.body.data.length, LIMITS.workspacesPerUser);
      await request(open.app).delete(`/api/workspaces/${made[0]}`).set(creator.auth).expect(202);
      await create('room again').expect(201);
    } finally {
      await open.close();
    }
  });

  it("keeps the tokens of a deleted workspace's members working in the workspaces they still belong to", async () => {
    const db = platform.runtime.db;
    const doomed = await createTenant(db, 'owner');
    const elsewhere = await createTenant(db, 'owner');
    const member = await createTenant(db, 'owner');
    // `member` also belongs to the doomed workspace; `user` belongs to it and elsewhere, with a token defaulting to it;
    // the invited person belongs to the doomed workspace only.
    await upsertMembership(db, doomed.workspaceId, member.userId, 'builder');
    const user = await ensureUser(db, `moved-${elsewhere.workspaceId}@example.test`, 'Moved');
    await upsertMembership(db, doomed.workspaceId, user.id, 'admin');
    await upsertMembership(db, elsewhere.workspaceId, user.id, 'viewer');
    const moved = (
      await request(platform.app)
        .post('/api/workspaces/current/members')
        .set(doomed.auth)
        .send({ email: `late-${elsewhere.workspaceId}@example.test`, role: 'viewer' })
        .expect(201)
    ).body.data.invite_token as string;
    const { token: defaulted } = await issueToken(db, {
      userId: user.id,
      workspaceId: doomed.workspaceId,
      name: 'default in doomed',
    });

    await call(doomed, 'delete', `/api/workspaces/${doomed.workspaceId}`).expect(202);
    await platform.runtime.temporal.client.workflow
      .getHandle(workflowIds.workspaceDeletion(doomed.workspaceId))
      .result();

    const bearer = { Authorization: `Bearer ${defaulted}` };
    await request(platform.app)
      .get('/api/ai-agents')
      .set(bearer)
      .set('X-Workspace-Id', elsewhere.workspaceId)
      .expect(200);
    await request(platform.app).get('/api/ai-agents').set(bearer).expect(200);
    await request(platform.app).get('/api/ai-agents').set(member.auth).expect(200);
    await request(platform.app)
      .get('/api/ai-agents')
      .set({ Authorization: `Bearer ${moved}` })
      .expect(401);
    await request(platform.app).get('/api/ai-agents').set(doomed.auth).expect(401);
  });

  it('lists my workspaces in pages, each once, with my role in each', async () => {
    const lister = await createTenant(platform.runtime.db, 'viewer');
    await grantOperator(platform.runtime.db, lister.userId);
    for (const name of ['p1', 'p2', 'p3']) await call(lister, 'post', '/api/workspaces', { name }).expect(201);
    const first = await call(lister, 'get', '/api/workspaces?limit=2').expect(200);
    assert.equal(first.body.data.length, 2);
    assert.ok(first.body.next_cursor);
    const second = await call(lister, 'get', `/api/workspaces?limit=2&cursor=${first.body.next_cursor}`).expect(200);
    assert.equal(second.body.next_cursor, null);
    const all = [...first.body.data, ...second.body.data];
    assert.deepEqual(all.map((w) => w.role).sort(), ['owner', 'owner', 'owner', 'viewer']);
    assert.equal(new Set(all.map((w) => w.id)).size, 4);
    await call(lister, 'get', '/api/workspaces?cursor=forged').expect(422);
  });

  it('renames the workspace the path names; a non-member gets 404 and a viewer 403', async () => {
    const ws = (await call(operator, 'post', '/api/workspaces', { name: 'Old' }).expect(201)).body.data;
    const renamed = await call(operator, 'patch', `/api/workspaces/${ws.id}`, { name: 'New' }).expect(200);
    assert.equal(renamed.body.data.name, 'New');
    assert.equal(
      (await call(someone, 'patch', `/api/workspaces/${ws.id}`, { name: 'x' }).expect(404)).body.error.code,
      'not_found',
    );
    await call(operator, 'patch', '/api/workspaces/not-a-uuid', { name: 'x' }).expect(404);
    const viewer = await createTenant(platform.runtime.db, 'viewer');
    await call(viewer, 'patch', `/api/workspaces/${viewer.workspaceId}`, { name: 'x' }).expect(403);
    await call(viewer, 'delete', `/api/workspaces/${viewer.workspaceId}`).expect(403);
  });

  it('checks that every table hanging off a purged table is purged too (or is the kept audit table)', async () => {
    const purged = new Set((await purgeSteps(platform.runtime.db)).map((step) => step.table));
    for (const table of purged) {
      for (const child of await referencingTables(platform.runtime.db, table))
        assert.ok(purged.has(child) || child === 'audit_events', `${child} references ${table} but is not purged`);
    }
  });

  it('deletes a workspace: unusable at once, then every row and every secret of it gone; others untouched', async () => {
    const victim = await createTenant(platform.runtime.db, 'owner');
    const bystander = await createTenant(platform.runtime.db, 'owner');
    const db = platform.runtime.db;
    for (const tenant of [victim, bystander]) {
      const api = evalApi(platform.app, tenant);
      await api.agent('support', 'gpt-4o');
      await api.connect('openai', 'sk-workspace-deletion-0001', llm.baseUrl);
      const conversation = await api.importRun('support', {
        session_input: { message: 'hi' },
        tool_calls: [{ tool_name: 'lookup', tool_args: { id: 1 } }],
        final_response: 'hello',
      });
      const set = await api.evalSet('support', { name: 'smoke' });
      await api.promote('support', conversation.id, set.id, 'greeting');
      const run = await api.waitForEnd('support', (await api.trigger('support', 'smoke')).id);
      assert.equal(run.status, 'completed', run.error);
      await api.send('post', '/api/v1/mcp-servers', 201, {
        name: 'tracker',
        transport: 'http',
        config: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer $SECRET_VALUE' } },
        secret_value: 'tracker-secret-0001',
      });
    }
    const parents = await workspaceParents(db, victim.workspaceId);
    const before = await workspaceRowCounts(db, victim.workspaceId, parents);
    for (const table of MAIN_TABLES) assert.ok(before[table] > 0, `${table} holds rows of the workspace before`);
    const bystanderBefore = await workspaceRowCounts(
      db,
      bystander.workspaceId,
      await workspaceParents(db, bystander.workspaceId),
    );

    const res = await call(victim, 'delete', `/api/workspaces/${victim.workspaceId}`).expect(202);
    assert.deepEqual(res.body.data, { id: victim.workspaceId, deletion: 'started' });
    const after = await request(platform.app).get('/api/ai-agents').set(victim.auth);
    assert.ok([401, 403, 404].includes(after.status), `a token of the deleted workspace got ${after.status}`);

    const handle = platform.runtime.temporal.client.workflow.getHandle(
      workflowIds.workspaceDeletion(victim.workspaceId),
    );
    const result = await handle.result();
    assert.ok(result.secrets_deleted >= 2 && result.rows_deleted > 0, JSON.stringify(result));
    const counts = await workspaceRowCounts(db, victim.workspaceId, parents);
    for (const [table, count] of Object.entries(counts)) assert.equal(count, 0, `${table} still holds ${count} rows`);
    const listed = await fetch(`${h.openbao.address}/v1/secret/metadata/assay/${victim.workspaceId}?list=true`, {
      headers: { 'X-Vault-Token': h.openbao.token },
    });
    assert.equal(listed.status, 404, 'the workspace still has secrets in the vault');
    await request(platform.app).get('/api/ai-agents').set(victim.auth).expect(401);

    const bystanderAfter = await workspaceRowCounts(
      db,
      bystander.workspaceId,
      await workspaceParents(db, bystander.workspaceId),
    );
    assert.deepEqual(bystanderAfter, bystanderBefore);
    const secret = await platform.runtime.vault.get({
      workspaceId: bystander.workspaceId,
      credentialId: 'mcp-server:tracker',
    });
    assert.match(secret ?? '', /tracker-secret-0001/);
  });
});
