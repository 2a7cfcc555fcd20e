import assert from 'node:assert/strict';
import request from 'supertest';
import { grantOperator } from '../../db/account.repository';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { judgedSuite } from '../helpers/judged-suite';
import { createTenant, type Tenant } from '../helpers/tenants';

// Issue 13, first "Must show": an operator brings a second team onto the instance over HTTP only, that team's CI
// (a service token) evaluates its agent end to end, and neither team can see or act in the other's workspace.
const ORDER = {
  session_input: { message: 'Where is my order 42?' },
  tool_calls: [{ tool_name: 'lookup_order', tool_args: { id: 42 }, result: { status: 'shipped' } }],
  final_response: 'Your order ships tomorrow.',
};
const KEY_A = 'sk-team-a-openai-key-0001';
const KEY_B = 'sk-team-b-openai-key-0002';

/** A caller of `evalApi` by bearer token alone (evalApi reads only `auth`). */
const caller = (token: string, workspaceId: string): Tenant => ({
  workspaceId,
  userId: '',
  token,
  auth: { Authorization: `Bearer ${token}` },
});

describe('a second team, brought in over HTTP, evaluates in its own workspace and nowhere else', function () {
  this.timeout(180_000);
  const suite = judgedSuite(judgeReplies({ match: (ask) => ask.expected_response === ask.actual_response }));
  let teamA: Tenant;
  let agentA: any;
  let runA: any;

  /** A request as `token`, in `workspace` when given (X-Workspace-Id). */
  const as = (token: string, method: 'get' | 'post' | 'put', path: string, workspace?: string): request.Test => {
    const call = request(suite.platform.app)[method](path).set('Authorization', `Bearer ${token}`);
    return workspace ? call.set('X-Workspace-Id', workspace) : call;
  };

  /** Builds `support` with one case promoted from a conversation and runs its eval set to the end. */
  const evaluate = async (api: ReturnType<typeof evalApi>): Promise<{ agent: any; run: any }> => {
    const agent = await api.agent('support', 'gpt-4o');
    const set = await api.evalSet('support', { name: 'smoke' });
    const conversation = await api.importRun('support', ORDER);
    await api.promote('support', conversation.id, set.id, 'order status');
    const queued = await api.trigger('support', 'smoke');
    return { agent, run: await api.waitForEnd('support', queued.id) };
  };

  before(async () => {
    // Team A is already on the instance, with an agent and a run of its own.
    teamA = await createTenant(suite.platform.runtime.db, 'owner');
    const apiA = evalApi(suite.platform.app, teamA);
    await apiA.connect('openai', KEY_A, suite.llm.baseUrl);
    ({ agent: agentA, run: runA } = await evaluate(apiA));
    assert.equal(runA.status, 'completed', runA.error);
  });

  it('an operator creates workspace B and its owner; their CI token runs an eval there and sees nothing of A', async () => {
    // The operator: the one bootstrap step outside HTTP (like `assay token create --email … --operator`).
    const operator = await createTenant(suite.platform.runtime.db, 'owner');
    await grantOperator(suite.platform.runtime.db, operator.userId);

    const created = await as(operator.token, 'post', '/api/workspaces').send({ name: 'team-b' }).expect(201);
    const b = created.body.data;
    assert.equal(b.name, 'team-b');
    assert.equal(b.role, 'owner');

    const invited = await as(operator.token, 'post', '/api/workspaces/current/members', b.id)
      .send({ email: 'lead@team-b.example.test', role: 'owner' })
      .expect(201);
    assert.equal(invited.body.data.role, 'owner');
    const owner = invited.body.data.invite_token as string;
    assert.match(owner, /^assay_/);

    // B's owner connects B's own provider key and mints a service token for CI (role: the default, builder).
    await as(owner, 'put', '/api/workspaces/current/integrations/openai', b.id)
      .send({ api_key: KEY_B, base_url: suite.llm.baseUrl })
      .expect(200);
    const minted = await as(owner, 'post', '/api/workspaces/current/service-tokens', b.id)
      .send({ name: 'ci' })
      .expect(201);
    const ci = minted.body.data.token as string;
    assert.match(ci, /^assay_svc_/);
    assert.equal(minted.body.data.role, 'builder');

    const me = (await as(ci, 'get', '/api/me').expect(200)).body.data;
    assert.equal(me.user, null);
    assert.equal(me.actor.type, 'service_token');
    assert.deepEqual(me.memberships, [{ workspace_id: b.id, name: 'team-b', role: 'builder' }]);

    // CI builds and evaluates in B, with no X-Workspace-Id: the token's workspace is the only one it acts in.
    const judgedBefore = suite.llm.requests.length;
    const { agent: agentB, run: runB } = await evaluate(evalApi(suite.platform.app, caller(ci, b.id)));
    assert.equal(runB.status, 'completed', runB.error);
    const results = await evalApi(suite.platform.app, caller(ci, b.id)).results('support', runB.id);
    assert.deepEqual(
      results.map((r) => [r.case_name, r.status]),
      [['order status', 'passed']],
    );
    const judged = suite.llm.requests.slice(judgedBefore);
    assert.ok(judged.length > 0, 'the judge was called');
    assert.ok(
      judged.every((r) => r.authorization === `Bearer ${KEY_B}`),
      "B's run is judged with B's key",
    );
    assert.notEqual(agentB.id, agentA.id);

    // B's CI sees nothing of A: A's agent and A's run are not found by id, and A cannot be named as workspace.
    await as(ci, 'get', `/api/ai-agents/${agentA.id}`).expect(404);
    await as(ci, 'get', `/api/ai-agents/${agentA.id}/eval-runs/${runA.id}`).expect(404);
    await as(ci, 'get', `/api/ai-agents/${agentB.id}/eval-runs/${runA.id}`).expect(404);
    await as(ci, 'get', '/api/ai-agents', teamA.workspaceId).expect(403);
    const listed = (await as(ci, 'get', '/api/ai-agents').expect(200)).body.data;
    assert.deepEqual(
      listed.map((a: any) => a.id),
      [agentB.id],
    );
    // A service token makes no workspaces and holds no personal tokens.
    await as(ci, 'post', '/api/workspaces').send({ name: 'sneaky' }).expect(403);
    await as(ci, 'get', '/api/tokens').expect(403);

    // A's tokens, personal and service, see nothing of B.
    const ciA = (
      await as(teamA.token, 'post', '/api/workspaces/current/service-tokens').send({ name: 'ci-a' }).expect(201)
    ).body.data.token as string;
    for (const tokenA of [teamA.token, ciA]) {
      await as(tokenA, 'get', '/api/ai-agents', b.id).expect(403);
      await as(tokenA, 'get', `/api/ai-agents/${agentB.id}`).expect(404);
      await as(tokenA, 'get', `/api/ai-agents/${agentA.id}/eval-runs/${runB.id}`).expect(404);
      await as(tokenA, 'post', '/api/workspaces/current/members', b.id)
        .send({ email: 'intruder@example.test', role: 'owner' })
        .expect(403);
    }
    await as(teamA.token, 'get', '/api/workspaces/current/members', b.id).expect(403);
  });
});
