import assert from 'node:assert/strict';
import request from 'supertest';
import { insertMcpServer } from '../../db/mcp-server.repository';
import { LIMITS } from '../../domain/limits';
import { waitFor } from '../../lib/embedded/process-utils';
import { workflowIds } from '../../workflows/temporal-names';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { seedCases } from '../helpers/eval-seed';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { startStallingMcpPeer, type StallingMcpPeer } from '../helpers/stalling-mcp-peer';
import { createTenant, type Tenant } from '../helpers/tenants';

// More servers than a worker has activity slots (the SDK's default, 100): unbounded, their stalled checks hold them all.
const NOISY_SERVERS = 120;
const CASES = 40;
const CAP = 3;

describe('MCP servers per workspace and their health checks are bounded', function () {
  this.timeout(420_000);
  let platform: TestPlatform;
  let peer: StallingMcpPeer;
  let llm: ScriptedLlm;

  const countServers = async (workspaceId: string): Promise<number> =>
    (await platform.runtime.db.selectFrom('mcp_servers').select('id').where('workspace_id', '=', workspaceId).execute())
      .length;
  const register = async (tenant: Tenant, name: string, url: string, interval: number) =>
    request(platform.app)
      .post('/api/v1/mcp-servers')
      .set(tenant.auth)
      .send({ name, transport: 'http', config: { url }, health_check_interval_seconds: interval });

  before(async () => {
    peer = await startStallingMcpPeer();
    llm = await startScriptedLlm(judgeReplies({ delayMs: 100 }));
    platform = await createTestPlatform(await harness(), {
      env: { EGRESS_ALLOWLIST: '127.0.0.1', WORKSPACE_HEALTH_CHECK_CONCURRENCY: String(CAP) },
    });
    await platform.startWorker();
  });
  after(async () => {
    // The peer first: its stalled requests end, so the worker stops without waiting for them.
    await peer?.close();
    await llm?.close();
    await platform?.close();
  });

  it('refuses a server over mcpServersPerWorkspace with 422 naming the limit, and changes nothing', async () => {
    const tenant = await createTenant(platform.runtime.db, 'owner');
    for (let i = 0; i < LIMITS.mcpServersPerWorkspace - 1; i++)
      await insertMcpServer(platform.runtime.db, tenant.workspaceId, {
        catalogId: null,
        name: `seeded-${i}`,
        transport: 'http',
        config: { url: peer.okUrl, headers: {} },
        secretNames: [],
      });
    const last = await register(tenant, 'last', peer.okUrl, 86_400);
    assert.equal(last.status, 201, last.text);
    const over = await register(tenant, 'one-more', peer.okUrl, 86_400);
    assert.equal(over.status, 422, over.text);
    assert.equal(over.body.error.code, 'validation_failed');
    assert.deepEqual(
      { limit: over.body.error.details[0].limit, max: over.body.error.details[0].max },
      { limit: 'mcpServersPerWorkspace', max: LIMITS.mcpServersPerWorkspace },
    );
    assert.match(over.body.error.message, /mcpServersPerWorkspace/);
    assert.equal(await countServers(tenant.workspaceId), LIMITS.mcpServersPerWorkspace);
  });

  it("keeps another workspace's run and checks at their pace while one workspace's many checks stall", async () => {
    const quiet = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, quiet);
    const agent = { ...(await api.agent('steady', 'gpt-4o')), workspace_id: quiet.workspaceId };
    await api.connect('openai', 'sk-steady-workspace-0001', llm.baseUrl);
    const set = await api.evalSet('steady', { name: 'pace', judge_samples: 1 });
    await seedCases(platform.runtime.db, agent, set.id, CASES, true);
    const timedRun = async (): Promise<number> => {
      const started = Date.now();
      const run = await api.waitForEnd('steady', (await api.trigger('steady', 'pace', { no_cache: true })).id, 180_000);
      assert.equal(run.status, 'completed', run.error);
      assert.equal(run.summary.counts.passed, CASES);
      return Date.now() - started;
    };
    const alone = await timedRun();

    // The noisy workspace: every server checked every 30 s, each check stalls mid-handshake.
    const noisy = await createTenant(platform.runtime.db, 'owner');
    for (let i = 0; i < NOISY_SERVERS; i++) {
      const res = await register(noisy, `stall-${i}`, peer.stallUrl, LIMITS.healthCheckIntervalMinSeconds);
      assert.equal(res.status, 201, res.text);
    }
    await waitFor('the noisy checks to stall', async () => peer.stalled() >= CAP, 90_000);

    // The quiet workspace's own check is not queued behind them.
    const ok = await register(quiet, 'healthy', peer.okUrl, 86_400);
    assert.equal(ok.status, 201, ok.text);
    const handshakes = peer.okHandshakes();
    await platform.runtime.temporal.client.schedule.getHandle(workflowIds.mcpHealth(ok.body.id)).trigger();
    await waitFor('the quiet workspace health check', async () => peer.okHandshakes() > handshakes, 30_000);

    const beside = await timedRun();
    assert.ok(
      beside <= Math.max(3 * alone, alone + 30_000),
      `the run took ${beside} ms beside the noisy workspace, ${alone} ms alone`,
    );
    assert.ok(peer.peakStalled() <= CAP, `${peer.peakStalled()} checks of one workspace in flight, cap ${CAP}`);
  });
});
