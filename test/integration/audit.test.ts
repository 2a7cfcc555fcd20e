import assert from 'node:assert/strict';
import request from 'supertest';
import { API_ROUTES } from '../../api/app';
import { upsertMembership } from '../../db/member.repository';
import { auditRowCount, auditRowsOf, expectedOutcome, filledPath, freshRequestId } from '../helpers/audit-rows';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

describe('audit trail: one entry per state-changing request', () => {
  let platform: TestPlatform;
  let owner: Tenant;
  let viewer: Record<string, string>;
  let viewerId: string;

  const send = async (
    headers: Record<string, string>,
    method: Method,
    path: string,
    body?: object | string,
  ): Promise<request.Response & { requestId: string }> => {
    const requestId = freshRequestId();
    const call = request(platform.app)[method](path).set(headers).set('X-Request-Id', requestId);
    const res = body === undefined ? await call : await call.send(body);
    return Object.assign(res, { requestId });
  };

  before(async () => {
    platform = await createTestPlatform(await harness());
    owner = await createTenant(platform.runtime.db, 'owner');
    const member = await createTenant(platform.runtime.db, 'viewer');
    await upsertMembership(platform.runtime.db, owner.workspaceId, member.userId, 'viewer');
    viewer = { ...member.auth, 'X-Workspace-Id': owner.workspaceId };
    viewerId = member.userId;
  });
  after(async () => platform?.close());

  // Every route, today's and any added later: an owner's write on ids no resource has (it may succeed or fail).
  for (const spec of API_ROUTES.filter((r) => r.method !== 'get')) {
    const action = `${spec.method.toUpperCase()} ${spec.path}`;
    it(`${action}: records exactly one entry naming the action, the caller, the outcome and the request`, async () => {
      const { path, params } = filledPath(spec.path);
      const before = await auditRowCount(platform.runtime.db);
      const res = await send(owner.auth, spec.method, path, {});
      const rows = await auditRowsOf(platform.runtime.db, res.requestId);
      assert.equal(rows.length, 1, `${res.status} ${res.text}`);
      assert.equal(await auditRowCount(platform.runtime.db), before + 1);
      const [row] = rows;
      assert.deepEqual(
        {
          action: row.action,
          actor: [row.actor_type, row.actor_id],
          workspace: row.workspace_id,
          outcome: row.outcome,
          status: row.status,
        },
        {
          action,
          actor: ['user', owner.userId],
          workspace: owner.workspaceId,
          outcome: expectedOutcome(res.status),
          status: res.status,
        },
      );
      const [collection, last] = spec.path.split('/').slice(-2);
      if (last.startsWith(':'))
        assert.deepEqual([row.resource_type, row.resource_id], [collection, params[last.slice(1)]]);
    });
  }

  it('writes no entry for a read', async () => {
    const before = await auditRowCount(platform.runtime.db);
    for (const spec of API_ROUTES.filter((r) => r.method === 'get')) {
      const res = await send(owner.auth, 'get', filledPath(spec.path).path);
      assert.equal((await auditRowsOf(platform.runtime.db, res.requestId)).length, 0, spec.path);
    }
    assert.equal(await auditRowCount(platform.runtime.db), before);
  });

  it('records a write refused for a missing permission as denied, with the member who tried', async () => {
    const res = await send(viewer, 'post', '/api/ai-agents', { name: 'nope', model: 'gpt-4o' });
    assert.equal(res.status, 403);
    const [row] = await auditRowsOf(platform.runtime.db, res.requestId);
    assert.deepEqual(
      [row.outcome, row.status, row.actor_id, row.action],
      ['denied', 403, viewerId, 'POST /api/ai-agents'],
    );
  });

  it('records what a success created: the new resource and its id', async () => {
    const res = await send(owner.auth, 'post', '/api/ai-agents', {
      name: 'audited',
      model: 'gpt-4o',
      instructions: 'Hi.',
    });
    assert.equal(res.status, 201, res.text);
    const [row] = await auditRowsOf(platform.runtime.db, res.requestId);
    assert.deepEqual(
      [row.outcome, row.status, row.resource_type, row.resource_id],
      ['success', 201, 'ai-agents', res.body.data.id],
    );
  });

  it('records a write that failed before its route ran (a body that is not JSON, a path no route has)', async () => {
    const json = { ...owner.auth, 'Content-Type': 'application/json' };
    const malformed = await send(json, 'post', '/api/ai-agents', '{"name":');
    assert.equal(malformed.status, 400);
    const unknown = await send(owner.auth, 'delete', '/api/no-such-thing');
    assert.equal(unknown.status, 404);
    const rows = [
      ...(await auditRowsOf(platform.runtime.db, malformed.requestId)),
      ...(await auditRowsOf(platform.runtime.db, unknown.requestId)),
    ];
    assert.deepEqual(
      rows.map((row) => [row.action, row.outcome, row.status]),
      [
        ['POST /api/ai-agents', 'failed', 400],
        ['DELETE (no route)', 'failed', 404],
      ],
    );
  });

  it('records nothing for an unknown caller (401) or a workspace the caller is not in', async () => {
    const stranger = await createTenant(platform.runtime.db, 'owner');
    const before = await auditRowCount(platform.runtime.db);
    const unknown = await send({ Authorization: 'Bearer not-a-token' }, 'post', '/api/ai-agents', {});
    const outsider = await send(
      { ...stranger.auth, 'X-Workspace-Id': owner.workspaceId },
      'post',
      '/api/ai-agents',
      {},
    );
    assert.deepEqual([unknown.status, outsider.status], [401, 403]);
    assert.equal(await auditRowCount(platform.runtime.db), before);
  });
});
