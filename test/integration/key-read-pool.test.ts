import assert from 'node:assert/strict';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { seedCases } from '../helpers/eval-seed';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const RUNS = 8;

describe('judge key reads and the Postgres pool', function () {
  this.timeout(180_000);
  let platform: TestPlatform;
  let llm: ScriptedLlm;

  before(async () => {
    llm = await startScriptedLlm(judgeReplies({ delayMs: 20 }));
    // The embedded credential store reads keys through the same pool: four connections for twice as many key reads.
    platform = await createTestPlatform(await harness(), {
      env: { EGRESS_ALLOWLIST: '127.0.0.1', DATABASE_POOL_SIZE: '4', WORKSPACE_EVAL_CONCURRENCY: '64' },
    });
    assert.equal(platform.runtime.vault.backend, 'local');
    await platform.startWorker();
  });
  after(async () => {
    await platform?.close();
    await llm?.close();
  });

  it('completes runs started all at once, each reading its judge key, on a pool smaller than their number', async () => {
    const tenant = await createTenant(platform.runtime.db, 'admin');
    const api = evalApi(platform.app, tenant);
    const agent = { ...(await api.agent('bot', 'gpt-4o')), workspace_id: tenant.workspaceId };
    await api.connect('openai', 'sk-pool', llm.baseUrl);
    const sets: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      const set = await api.evalSet('bot', { name: `set ${i}`, judge_samples: 1 });
      await seedCases(platform.runtime.db, agent, set.id, 4, true);
      sets.push(set.id);
    }
    const runs = await Promise.all(sets.map((set) => api.trigger('bot', set)));
    const done = await Promise.all(runs.map((run) => api.waitForEnd('bot', run.id, 120_000)));
    for (const run of done) {
      assert.equal(run.status, 'completed', run.error);
      assert.deepEqual(run.summary.counts, { total: 4, passed: 4, failed: 0, error: 0 });
    }
  });
});
