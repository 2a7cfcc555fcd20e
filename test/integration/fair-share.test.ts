import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { LIMITS } from '../../domain/limits';
import { waitFor } from '../../lib/embedded/process-utils';
import { workflowIds } from '../../workflows/temporal-names';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const CAP = 2;
const judge = judgeReplies({});

// Judge requests open at the scripted LLM, per workspace key: now and at the most so far.
class OpenRequests {
  private readonly open = new Map<string, number>();
  private readonly highest = new Map<string, number>();
  enter(key: string): void {
    const now = this.now(key) + 1;
    this.open.set(key, now);
    this.highest.set(key, Math.max(now, this.peak(key)));
  }
  leave(key: string): void {
    this.open.set(key, this.now(key) - 1);
  }
  now(key: string): number {
    return this.open.get(key) ?? 0;
  }
  peak(key: string): number {
    return this.highest.get(key) ?? 0;
  }
}

describe('fair share of the workers', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let requests: OpenRequests;
  const gates = new Map<string, JudgeGate>();

  // A workspace with an agent, its own judge key and a set of `cases` promoted conversations the judge must score.
  async function workspace(key: string, cases: number) {
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    await api.agent('bot', 'gpt-4o');
    await api.connect('openai', key, llm.baseUrl);
    const set = await api.evalSet('bot', { name: 'set' });
    for (let i = 0; i < cases; i++) {
      const conversation = await api.importRun('bot', {
        session_input: { message: `${key} question ${i}` },
        final_response: `answer ${i}`,
      });
      await api.promote('bot', conversation.id, set.id);
    }
    return { tenant, api, key, cases };
  }

  // Counts each workspace's open requests; a gated workspace's replies wait until the test lets them through.
  const countingJudge = async (req: ScriptedRequest): Promise<ScriptedReply> => {
    const key = req.authorization ?? '';
    requests.enter(key);
    try {
      await gates.get(key)?.acquire();
      // A judge that takes a moment, so cases of one workspace overlap whenever the cap lets them.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return judge(req);
    } finally {
      requests.leave(key);
    }
  };

  const heldSlots = async (workspaceId: string): Promise<number> => {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM case_slots WHERE workspace_id = ${workspaceId}`.execute(platform.runtime.db);
    return Number(rows[0].n);
  };

  before(async () => {
    platform = await createTestPlatform(await harness(), {
      env: { EGRESS_ALLOWLIST: '127.0.0.1', WORKSPACE_EVAL_CONCURRENCY: String(CAP) },
    });
    // Two workers on the queue: the cap holds across worker processes, not only within one.
    await platform.startWorker();
    await platform.startWorker();
    requests = new OpenRequests();
    llm = await startScriptedLlm(countingJudge);
  });
  after(async () => {
    for (const gate of gates.values()) gate.release(Infinity);
    await llm?.close();
    await platform?.close();
  });

  it('caps one workspace at WORKSPACE_EVAL_CONCURRENCY cases in flight across its runs, while another completes', async function () {
    this.timeout(240_000);
    const a = await workspace('sk-workspace-a-000001', 4);
    const b = await workspace('sk-workspace-b-000002', 3);
    const gate = judgeGate();
    gates.set(`Bearer ${a.key}`, gate);

    // Three runs of A at once: 12 cases, 8 lanes each, against a cap of 2 shared by all of them.
    const runsOfA = await Promise.all([1, 2, 3].map(() => a.api.trigger('bot', 'set')));
    await waitFor('A to fill its slots', async () => requests.now(`Bearer ${a.key}`) === CAP, 60_000);

    // A's judge calls are held open: A is saturated. B is not waiting behind it.
    const runOfB = await b.api.waitForEnd('bot', (await b.api.trigger('bot', 'set')).id, 120_000);
    assert.equal(runOfB.status, 'completed', runOfB.error);
    assert.deepEqual(runOfB.summary.counts, { total: b.cases, passed: b.cases, failed: 0, error: 0 });
    assert.equal((await b.api.results('bot', runOfB.id)).length, b.cases);
    assert.equal(requests.now(`Bearer ${a.key}`), CAP);
    assert.equal(await heldSlots(a.tenant.workspaceId), CAP);
    for (const run of runsOfA)
      assert.equal((await a.api.send('get', `/api/ai-agents/bot/eval-runs/${run.id}`, 200)).data.status, 'running');

    gate.release(Infinity);
    for (const run of runsOfA) {
      const done = await a.api.waitForEnd('bot', run.id, 180_000);
      assert.equal(done.status, 'completed', done.error);
      assert.deepEqual(done.summary.counts, { total: a.cases, passed: a.cases, failed: 0, error: 0 });
      assert.equal((await a.api.results('bot', run.id)).length, a.cases);
    }
    assert.equal(requests.peak(`Bearer ${a.key}`), CAP);
    assert.ok(requests.peak(`Bearer ${b.key}`) <= CAP, `B had ${requests.peak(`Bearer ${b.key}`)} cases in flight`);
    assert.equal(await heldSlots(a.tenant.workspaceId), 0);
    assert.equal(await heldSlots(b.tenant.workspaceId), 0);
  });

  it('gives the slots back when a run is cancelled mid-case', async function () {
    this.timeout(120_000);
    const c = await workspace('sk-workspace-c-000003', 4);
    const gate = judgeGate();
    gates.set(`Bearer ${c.key}`, gate);
    const run = await c.api.trigger('bot', 'set');
    await waitFor('C to fill its slots', async () => (await heldSlots(c.tenant.workspaceId)) === CAP, 60_000);
    await platform.runtime.temporal.client.workflow.getHandle(workflowIds.evalRun(run.id)).cancel();
    await waitFor('C to hold no slot', async () => (await heldSlots(c.tenant.workspaceId)) === 0, 60_000);
    gate.release(Infinity);
  });

  it(`ends a case whose judge keeps failing after ${LIMITS.judgeCallsPerCase} judge calls, with an error naming the bound`, async function () {
    this.timeout(180_000);
    const d = await workspace('sk-workspace-d-000004', 1);
    // Always retryable: 503 with a short retry-after, so the SDK and the session ask again at once.
    llm.script((req) =>
      req.authorization === `Bearer ${d.key}`
        ? { status: 503, headers: { 'retry-after-ms': '5' }, body: { error: { message: 'overloaded' } } }
        : countingJudge(req),
    );
    const before = llm.requests.length;
    const run = await d.api.waitForEnd('bot', (await d.api.trigger('bot', 'set')).id, 150_000);
    llm.script(countingJudge);
    const asked = llm.requests.slice(before).filter((req) => judgeAsk(req).user_input.startsWith(d.key));
    assert.equal(run.status, 'completed', run.error);
    assert.deepEqual(run.summary.counts, { total: 1, passed: 0, failed: 0, error: 1 });
    const [result] = await d.api.results('bot', run.id);
    assert.equal(result.status, 'error');
    assert.match(result.error, new RegExp(`called ${LIMITS.judgeCallsPerCase} times .*judgeCallsPerCase`));
    assert.match(result.error, /last failure: the openai endpoint answered HTTP 503/);
    assert.equal(asked.length, LIMITS.judgeCallsPerCase);
    assert.equal(await heldSlots(d.tenant.workspaceId), 0);
  });
});
