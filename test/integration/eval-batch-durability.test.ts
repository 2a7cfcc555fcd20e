import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { waitFor } from '../../lib/embedded/process-utils';
import { EVAL_BATCH_MAX } from '../../domain/eval/eval-batches';
import { promoteCases } from '../helpers/promoted-cases';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import type { TestPlatform } from '../helpers/platform';
import type { ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';
import type { WorkerPool } from '../helpers/worker-process';
import { startWorkerRig, stopWorkerRig } from '../helpers/worker-rig';

// One page, one batch: every case of the run is scored by the batch the kill interrupts.
const CASES = EVAL_BATCH_MAX;

describe('eval batch durability', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let workers: WorkerPool;

  const storedRows = async (runId: string) =>
    (
      await sql<{ case_id: string; scored_by: string }>`
        SELECT case_id, scored_by FROM case_results WHERE run_id = ${runId}`.execute(platform.runtime.db)
    ).rows;

  // Judge requests per case message ("case 7" → how many times the judge was asked about it).
  const judgeCallsPerMessage = (): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const request of llm.requests) {
      const message = judgeAsk(request).user_input;
      counts.set(message, (counts.get(message) ?? 0) + 1);
    }
    return counts;
  };

  before(async () => {
    ({ platform, workers, llm } = await startWorkerRig({
      platform: { env: { EGRESS_ALLOWLIST: '127.0.0.1' } },
      // Slow enough that the batch is killed with some results flushed and most cases still to score.
      llm: judgeReplies({ delayMs: 400 }),
    }));
  });
  after(() => stopWorkerRig({ workers, llm, platform }));

  it('finishes a batch whose worker is killed mid-batch: one result per case, flushed cases not judged again', async function () {
    this.timeout(300_000);
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.agent('bulk', 'gpt-4o');
    await api.connect('openai', 'sk-batch-durability-key-01', llm.baseUrl);
    const set = await api.evalSet('bulk', { name: 'batch' });
    const messageOf = new Map((await promoteCases(api, 'bulk', set.id, CASES)).map((c) => [c.id, c.message]));

    const first = await workers.spawn();
    const run = await api.trigger('bulk', 'batch');
    await waitFor('a few flushes before the kill', async () => (await storedRows(run.id)).length >= 20, 90_000);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const atKill = await storedRows(run.id);
    assert.ok(atKill.length < CASES, `the batch had already finished (${atKill.length} results) when it was killed`);
    const callsAtKill = judgeCallsPerMessage();

    const second = await workers.spawn();
    const done = await api.waitForEnd('bulk', run.id, 240_000);
    assert.equal(done.status, 'completed', done.error);
    assert.deepEqual(done.summary.counts, { total: CASES, passed: CASES, failed: 0, error: 0 });
    assert.equal(done.scored_cases, CASES);

    const rows = await storedRows(run.id);
    assert.equal(rows.length, CASES);
    assert.deepEqual(rows.map((row) => row.case_id).sort(), [...messageOf.keys()].sort());
    // The retried batch skipped what the killed attempt stored: those rows are the first worker's, the rest the second's.
    const firstIdentity = `${first.child.pid}@`;
    const storedBeforeKill = new Set(atKill.map((row) => row.case_id));
    for (const row of rows) {
      const byFirst = row.scored_by.startsWith(firstIdentity);
      assert.equal(byFirst, storedBeforeKill.has(row.case_id), `case ${row.case_id} scored by ${row.scored_by}`);
      if (!byFirst) assert.ok(row.scored_by.startsWith(`${second.child.pid}@`), row.scored_by);
    }
    // And judged none of them again.
    const callsAfter = judgeCallsPerMessage();
    for (const caseId of storedBeforeKill) {
      const message = messageOf.get(caseId) ?? '';
      assert.ok((callsAtKill.get(message) ?? 0) > 0, `${message} was stored without a judge call`);
      assert.equal(callsAfter.get(message), callsAtKill.get(message), `${message} was judged again after the kill`);
    }
  });
});
