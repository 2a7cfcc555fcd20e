import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { waitFor } from '../../lib/embedded/process-utils';
import { publishedAgent, toolMessages, userMessage } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import type { TestPlatform } from '../helpers/platform';
import type { ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';
import type { WorkerPool } from '../helpers/worker-process';
import { startWorkerRig, stopWorkerRig } from '../helpers/worker-rig';

const CASES = 40;

describe('live eval run durability', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let workers: WorkerPool;

  const count = async (query: ReturnType<typeof sql<{ n: string }>>): Promise<number> =>
    Number((await query.execute(platform.runtime.db)).rows[0].n);

  before(async () => {
    ({ platform, workers, llm } = await startWorkerRig({
      // Four cases at a time, each two 300 ms model steps: the run lasts long enough to kill its worker halfway.
      platform: { env: { EGRESS_ALLOWLIST: '127.0.0.1', EVAL_CONCURRENCY: '4' } },
      llm: (req) => {
        const contact = userMessage(req.messages).replace('contact ', '');
        if (toolMessages(req.messages) === 0)
          return { toolCalls: [{ name: 'crm_update_contact', arguments: { contact_id: contact } }], delayMs: 300 };
        return { content: `updated ${contact}`, delayMs: 300 };
      },
    }));
  });
  after(() => stopWorkerRig({ workers, llm, platform }));

  it('scores every case exactly once, each from one sandbox conversation, after its worker is killed mid-run', async function () {
    // Generous: recovery waits out the dead worker's heartbeats and, at worst, its slot leases (CASE_SLOT_LEASE_MS).
    this.timeout(600_000);
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-live-durability-key-0000', llm.baseUrl);
    const agent = await publishedAgent(api, 'durable', 'gpt-4o');
    await api.evalSet('durable', { name: 'big' });
    const caseIds: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const created = await api.addCase('durable', 'big', {
        name: `case ${i}`,
        session_input: { message: `contact c${i}` },
        expected_trajectory: [{ tool_name: 'crm_update_contact', tool_args: { contact_id: `c${i}` } }],
      });
      caseIds.push(created.id);
    }

    const first = await workers.spawn();
    const run = await api.trigger('durable', 'big', { mode: 'live' });
    const results = (): Promise<number> =>
      count(sql<{ n: string }>`SELECT count(*) AS n FROM case_results WHERE run_id = ${run.id}`);
    await waitFor('some results before the kill', async () => (await results()) >= 6, 120_000);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const atKill = await results();
    assert.ok(atKill < CASES, `the run had already finished (${atKill} results) when its worker was killed`);

    await workers.spawn();
    const done = await api.waitForEnd('durable', run.id, 480_000);
    assert.equal(done.status, 'completed', done.error);
    assert.deepEqual(done.summary.counts, { total: CASES, passed: CASES, failed: 0, error: 0 });

    const perCase = await sql<{ case_id: string; n: string; conversations: string }>`
      SELECT case_id, count(*) AS n, count(DISTINCT conversation_id) AS conversations FROM case_results WHERE run_id = ${run.id} GROUP BY case_id`.execute(
      platform.runtime.db,
    );
    assert.deepEqual(perCase.rows.map((row) => row.case_id).sort(), [...caseIds].sort());
    assert.ok(perCase.rows.every((row) => row.n === '1' && row.conversations === '1'));
    // One agent run and one sandbox conversation per case: a retried activity or replayed child never made a second.
    assert.equal(
      await count(
        sql<{ n: string }>`SELECT count(*) AS n FROM agent_runs WHERE eval_run_id = ${run.id} AND status = 'completed'`,
      ),
      CASES,
    );
    assert.equal(
      await count(
        sql<{ n: string }>`SELECT count(*) AS n FROM conversations WHERE agent_id = ${agent.id} AND source = 'sandbox'`,
      ),
      CASES,
    );
    assert.equal(
      await count(sql<{ n: string }>`
      SELECT count(*) AS n FROM case_results r JOIN agent_runs a ON a.conversation_id = r.conversation_id AND a.eval_case_id = r.case_id
      WHERE r.run_id = ${run.id}`),
      CASES,
    );
  });
});
