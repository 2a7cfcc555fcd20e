import assert from 'node:assert/strict';
import { ScheduleNotFoundError } from '@temporalio/client';
import request from 'supertest';
import { ensureUser } from '../../db/account.repository';
import { upsertMembership } from '../../db/member.repository';
import { issueToken } from '../../lib/api-tokens';
import { waitFor } from '../../lib/embedded/process-utils';
import { workflowIds } from '../../workflows/temporal-names';
import { harness, type Harness } from '../helpers/harness';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

interface Health {
  status: string;
  consecutive_failures: number;
  health_check_interval_seconds: number;
  checks: Array<{ status: string; latency_ms: number | null; message: string | null; checked_at: string }>;
}

describe('scheduled MCP health checks', () => {
  let h: Harness;
  let platform: TestPlatform;
  let peer: EverythingServer;
  let owner: Tenant;
  let serverId: string;

  const schedule = (id = serverId) => platform.runtime.temporal.client.schedule.getHandle(workflowIds.mcpHealth(id));
  const createServer = async (tenant: Tenant, body: object = {}): Promise<string> => {
    const res = await request(platform.app)
      .post('/api/v1/mcp-servers')
      .set(tenant.auth)
      .send({
        name: 'everything',
        transport: 'http',
        config: { url: peer.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
        secret_value: 'everything-token-0001',
        ...body,
      });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  };
  const health = async (tenant = owner): Promise<Health> => {
    const res = await request(platform.app).get(`/api/v1/mcp-servers/${serverId}/health`).set(tenant.auth);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  // Fires the schedule now (what its interval would do later) and waits until the check is recorded.
  const scheduledCheck = async (): Promise<Health> => {
    const before = (await health()).checks.length;
    await schedule().trigger();
    let after: Health | undefined;
    await waitFor(
      'the triggered health check',
      async () => {
        after = await health();
        return after.checks.length > before;
      },
      60_000,
    );
    return after as Health;
  };

  before(async () => {
    h = await harness();
    peer = await startEverythingHttp();
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    owner = await createTenant(h.db, 'owner');
    serverId = await createServer(owner, { health_check_interval_seconds: 60 });
  });
  after(async () => {
    await platform?.close();
    await peer?.stop();
  });

  it('schedules a server at creation with its interval, and moves the schedule when the interval changes', async () => {
    const described = await schedule().describe();
    assert.equal(described.spec.intervals?.[0]?.every, 60_000);
    assert.equal(described.action.workflowType, 'mcpHealthCheckWorkflow');
    const patched = await request(platform.app)
      .patch(`/api/v1/mcp-servers/${serverId}`)
      .set(owner.auth)
      .send({ health_check_interval_seconds: 120 });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.health_check_interval_seconds, 120);
    assert.equal(patched.body.status, 'pending', 'an interval change alone does not reconfigure the server');
    assert.equal((await schedule().describe()).spec.intervals?.[0]?.every, 120_000);
  });

  it('refuses an interval out of bounds with 422 naming the field, and changes nothing', async () => {
    for (const seconds of [29, 86_401, 1.5]) {
      const res = await request(platform.app)
        .patch(`/api/v1/mcp-servers/${serverId}`)
        .set(owner.auth)
        .send({ health_check_interval_seconds: seconds });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.error.details[0].field, 'health_check_interval_seconds');
    }
    assert.equal((await schedule().describe()).spec.intervals?.[0]?.every, 120_000);
    assert.equal((await health()).health_check_interval_seconds, 120);
  });

  it('records a healthy check of a connected server', async () => {
    const sync = await request(platform.app).post(`/api/v1/mcp-servers/${serverId}/refresh-tools`).set(owner.auth);
    assert.equal(sync.status, 200, sync.text);
    const result = await scheduledCheck();
    assert.equal(result.status, 'connected');
    assert.equal(result.consecutive_failures, 0);
    assert.equal(result.checks[0].status, 'connected');
    assert.ok(typeof result.checks[0].latency_ms === 'number');
  });

  it('goes to error after 3 failed checks in a row once its peer stops, and back on the next success', async () => {
    const port = Number(new URL(peer.url).port);
    await peer.stop();
    for (const failures of [1, 2]) {
      const result = await scheduledCheck();
      assert.equal(result.consecutive_failures, failures);
      assert.equal(result.status, 'connected', `still connected after ${failures} failure(s)`);
      assert.equal(result.checks[0].status, 'error');
    }
    const failed = await scheduledCheck();
    assert.equal(failed.status, 'error');
    assert.equal(failed.consecutive_failures, 3);
    assert.ok(failed.checks[0].message, 'the failed check says why');
    const server = await request(platform.app).get(`/api/v1/mcp-servers/${serverId}`).set(owner.auth);
    assert.equal(server.body.status, 'error');
    assert.equal(server.body.last_error, failed.checks[0].message);

    peer = await startEverythingHttp(port);
    const recovered = await scheduledCheck();
    assert.equal(recovered.status, 'connected');
    assert.equal(recovered.consecutive_failures, 0);
    assert.deepEqual(
      recovered.checks.map((check) => check.status),
      ['connected', 'error', 'error', 'error', 'connected'],
    );
    const back = await request(platform.app).get(`/api/v1/mcp-servers/${serverId}`).set(owner.auth);
    assert.equal(back.body.last_error, null);
  });

  it('answers 404 for another workspace and lets a viewer read the health', async () => {
    const other = await createTenant(h.db, 'owner');
    const res = await request(platform.app).get(`/api/v1/mcp-servers/${serverId}/health`).set(other.auth);
    assert.equal(res.status, 404);
    const user = await ensureUser(h.db, 'health-viewer@example.test', 'Viewer');
    await upsertMembership(h.db, owner.workspaceId, user.id, 'viewer');
    const { token } = await issueToken(h.db, { userId: user.id, workspaceId: owner.workspaceId, name: 'v' });
    const viewer = { ...owner, userId: user.id, token, auth: { Authorization: `Bearer ${token}` } };
    assert.equal((await health(viewer)).status, 'connected');
  });

  it('removes the schedule with the server', async () => {
    const res = await request(platform.app).delete(`/api/v1/mcp-servers/${serverId}`).set(owner.auth);
    assert.equal(res.status, 204, res.text);
    await assert.rejects(schedule().describe(), ScheduleNotFoundError);
  });

  it('removes the schedules of a deleted workspace', async () => {
    const doomed = await createTenant(h.db, 'owner');
    const id = await createServer(doomed);
    assert.equal((await schedule(id).describe()).spec.intervals?.[0]?.every, 300_000);
    await request(platform.app).delete(`/api/workspaces/${doomed.workspaceId}`).set(doomed.auth).expect(202);
    const deletion = platform.runtime.temporal.client.workflow.getHandle(
      workflowIds.workspaceDeletion(doomed.workspaceId),
    );
    assert.equal((await deletion.result()).schedules_deleted, 1);
    await assert.rejects(schedule(id).describe(), ScheduleNotFoundError);
  });
});
