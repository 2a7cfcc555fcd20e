import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { seedCases } from '../helpers/eval-seed';
import type { TestPlatform } from '../helpers/platform';
import { tallyRun } from '../helpers/run-tally';
import type { ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';
import type { WorkerPool } from '../helpers/worker-process';
import { startWorkerRig, stopWorkerRig } from '../helpers/worker-rig';

const CASES = 1000;
// Enough cases in flight that several batches run at once (whatever the batch size), so both workers' pollers get
// some; the workspace cap is raised to match on the workers, which read it.
const CONCURRENCY = 64;
// Judge latency: long enough that one worker cannot drain the queue before the other polls, short enough for ~60 s.
const JUDGE_DELAY_MS = 100;

describe('eval run scale-out', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let workers: WorkerPool;

  before(async () => {
    ({ platform, workers, llm } = await startWorkerRig({
      // No in-process worker: the two `assay worker` processes are the only pollers of the task queue. OpenBao holds
      // the judge's key, as in production (api, workers and vault all separate).
      platform: { vault: 'openbao', env: { EGRESS_ALLOWLIST: '127.0.0.1', EVAL_CONCURRENCY: String(CONCURRENCY) } },
      workerEnv: (h) => ({
        WORKSPACE_EVAL_CONCURRENCY: String(CONCURRENCY),
        VAULT_ADDR: h.openbao.address,
        VAULT_TOKEN: h.openbao.token,
      }),
      llm: judgeReplies({ delayMs: JUDGE_DELAY_MS }),
    }));
  });
  after(() => stopWorkerRig({ workers, llm, platform }));

  it('shares a 1,000-case run between two worker processes, exactly one result per case, each scoring a quarter or more', async function () {
    this.timeout(300_000);
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    const agent = { ...(await api.agent('shared', 'gpt-4o')), workspace_id: tenant.workspaceId };
    await api.connect('openai', 'sk-scale-out-key-000000', llm.baseUrl);
    const set = await api.evalSet('shared', { name: 'wide', judge_samples: 1 });
    const caseIds = await seedCases(platform.runtime.db, agent, set.id, CASES, true);

    const spawned = await Promise.all([workers.spawn(), workers.spawn()]);
    const identities = spawned.map((worker) => `${worker.child.pid}@${hostname()}`);
    const run = await api.trigger('shared', 'wide');
    const done = await api.waitForEnd('shared', run.id, 240_000);
    assert.equal(done.status, 'completed', done.error);

    const perCase = await sql<{ case_id: string; n: string }>`
      SELECT case_id, count(*) AS n FROM case_results WHERE run_id = ${run.id} GROUP BY case_id`.execute(
      platform.runtime.db,
    );
    const repeated = perCase.rows.filter((row) => row.n !== '1');
    assert.deepEqual(repeated, [], 'some cases have more than one result');
    assert.deepEqual(perCase.rows.map((row) => row.case_id).sort(), [...caseIds].sort(), 'cases missing a result');
    assert.deepEqual(done.summary.counts, { total: CASES, passed: CASES, failed: 0, error: 0 });

    const { perWorker } = await tallyRun(platform.runtime.db, run.id);
    assert.deepEqual(Object.keys(perWorker).sort(), [...identities].sort(), 'results scored by other than the two');
    for (const identity of identities)
      assert.ok(perWorker[identity] >= CASES / 4, `worker ${identity} scored ${perWorker[identity]} of ${CASES}`);
  });
});
