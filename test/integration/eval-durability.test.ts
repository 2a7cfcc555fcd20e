import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { waitFor } from '../../lib/embedded/process-utils';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import type { TestPlatform } from '../helpers/platform';
import type { ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';
import type { WorkerPool } from '../helpers/worker-process';
import { startWorkerRig, stopWorkerRig } from '../helpers/worker-rig';

const CASES = 200;

describe('eval run durability', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let workers: WorkerPool;

  const resultCount = async (runId: string): Promise<number> => {
    const row = await sql<{ n: string }>`SELECT count(*) AS n FROM case_results WHERE run_id = ${runId}`.execute(
      platform.runtime.db,
    );
    return Number(row.rows[0].n);
  };

  before(async () => {
    ({ platform, workers, llm } = await startWorkerRig({
      platform: { env: { EGRESS_ALLOWLIST: '127.0.0.1' } },
      llm: judgeReplies({ delayMs: 150 }),
    }));
  });
  after(() => stopWorkerRig({ workers, llm, platform }));

  it('completes a 200-case run with exactly one result per case after its worker is killed mid-run', async function () {
    this.timeout(300_000);
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.agent('bulk', 'gpt-4o');
    await api.connect('openai', 'sk-durability-key-000000', llm.baseUrl);
    const set = await api.evalSet('bulk', { name: 'big' });
    const caseIds: string[] = [];
    for (let batch = 0; batch < CASES; batch += 20) {
      const created = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const conversation = await api.importRun('bulk', {
            session_input: { message: `case ${batch + i}` },
            final_response: `answer ${batch + i}`,
          });
          return (await api.promote('bulk', conversation.id, set.id)).id as string;
        }),
      );
      caseIds.push(...created);
    }

    const first = await workers.spawn();
    const run = await api.trigger('bulk', 'big');
    await waitFor('some results before the kill', async () => (await resultCount(run.id)) >= 20, 90_000);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const atKill = await resultCount(run.id);
    assert.ok(atKill < CASES, `the run had already finished (${atKill} results) when its worker was killed`);

    await workers.spawn();
    const done = await api.waitForEnd('bulk', run.id, 240_000);
    assert.equal(done.status, 'completed', done.error);
    assert.ok((await resultCount(run.id)) > atKill);

    const rows = await sql<{ case_id: string; n: string }>`
      SELECT case_id, count(*) AS n FROM case_results WHERE run_id = ${run.id} GROUP BY case_id`.execute(
      platform.runtime.db,
    );
    assert.equal(rows.rows.length, CASES);
    assert.ok(rows.rows.every((row) => row.n === '1'));
    assert.deepEqual(rows.rows.map((row) => row.case_id).sort(), [...caseIds].sort());
    assert.deepEqual(done.summary.counts, { total: CASES, passed: CASES, failed: 0, error: 0 });
    assert.equal(done.scored_cases, CASES);
  });
});
