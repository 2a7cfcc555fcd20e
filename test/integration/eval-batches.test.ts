import assert from 'node:assert/strict';
import { Client } from 'pg';
import { EVAL_PROGRESS_CHANNEL, PROGRESS_FLUSH_MAX, type EvalProgressFlush } from '../../db/eval-progress';
import { promoteCases } from '../helpers/promoted-cases';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { judgeGate } from '../helpers/judge-gate';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { openRelay, serveWithRelay, type ServedApi } from '../helpers/relay-client';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const CASES = 60;
// The judge refuses the request about this case (HTTP 400): only that case of its batch ends `error`.
const REJECTED = 'case 3';

describe('eval cases scored in batches', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let served: ServedApi;
  let listener: Client;
  // Closed until the test's WebSocket client has its snapshot: every case then arrives as a delta.
  const gate = judgeGate();
  const notifications: Array<Record<string, unknown>> = [];

  before(async () => {
    const h = await harness();
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    const judge = judgeReplies({});
    llm = await startScriptedLlm(async (request) => {
      await gate.acquire();
      if (judgeAsk(request).user_input === REJECTED)
        return { status: 400, body: { error: { message: 'bad request' } } };
      return judge(request);
    });
    served = await serveWithRelay(platform.app, {
      config: platform.config,
      db: platform.runtime.db,
      logger: platform.logger,
    });
    listener = new Client({ connectionString: h.databaseUrl });
    await listener.connect();
    listener.on('notification', (message) => notifications.push(JSON.parse(message.payload ?? '{}')));
    await listener.query(`LISTEN ${EVAL_PROGRESS_CHANNEL}`);
  });
  after(async () => {
    await listener?.end();
    await served?.close();
    await llm?.close();
    await platform?.close();
  });

  it('announces each flush of results with one NOTIFY naming its cases, and the relay still sends one event per case', async function () {
    this.timeout(180_000);
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    await api.agent('bulk', 'gpt-4o');
    await api.connect('openai', 'sk-batches-test-key-000001', llm.baseUrl);
    const set = await api.evalSet('bulk', { name: 'many' });
    const caseIds = (await promoteCases(api, 'bulk', set.id, CASES)).map((c) => c.id);

    const client = await openRelay(served.wsUrl, { protocolToken: tenant.token });
    const run = await api.trigger('bulk', 'many');
    client.subscribe(run.id);
    await client.waitFor((m) => m.type === 'snapshot' && m.run_id === run.id);
    gate.release(Infinity);
    const end = await client.waitFor((m) => m.type === 'run_status' && m.run_id === run.id, 120_000);
    assert.equal(end.status, 'completed');

    // Postgres: fewer notifications than cases, each a flush of at most PROGRESS_FLUSH_MAX naming the cases it stored.
    const flushes = notifications.filter((n) => n.run_id === run.id && 'cases' in n) as unknown as EvalProgressFlush[];
    assert.ok(flushes.length < CASES, `${flushes.length} notifications for ${CASES} cases`);
    assert.ok(flushes.every((flush) => flush.cases.length >= 1 && flush.cases.length <= PROGRESS_FLUSH_MAX));
    assert.deepEqual(flushes.flatMap((flush) => flush.cases.map((c) => c.case_id)).sort(), [...caseIds].sort());
    assert.deepEqual(
      flushes.map((flush) => flush.scored).sort((a, b) => a - b),
      flushes.reduce<number[]>((counts, flush) => [...counts, (counts.at(-1) ?? 0) + flush.cases.length], []),
    );

    // WebSocket: one case_result per case (the snapshot came before any result).
    const snapshot = client.messages.find((m) => m.type === 'snapshot' && m.run_id === run.id);
    assert.deepEqual(snapshot.results, []);
    const perCase = client.messages.filter((m) => m.type === 'case_result' && m.run_id === run.id);
    assert.deepEqual(perCase.map((m) => m.result.case_id as string).sort(), [...caseIds].sort());
    client.close();
  });

  it('ends only the case whose judge request was rejected as an error, and scores the rest of its batch', async function () {
    this.timeout(120_000);
    gate.release(Infinity);
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.agent('picky', 'gpt-4o');
    await api.connect('openai', 'sk-batches-test-key-000002', llm.baseUrl);
    const set = await api.evalSet('picky', { name: 'twenty' });
    const cases = await promoteCases(api, 'picky', set.id, 20);
    const rejected = cases.find((c) => c.message === REJECTED)?.id;
    const asked = () => llm.requests.filter((r) => judgeAsk(r).user_input === REJECTED).length;
    const before = asked();

    const run = await api.waitForEnd('picky', (await api.trigger('picky', 'twenty')).id, 90_000);
    assert.equal(run.status, 'completed', run.error);
    assert.deepEqual(run.summary.counts, { total: 20, passed: 19, failed: 0, error: 1 });
    const errors = (await api.results('picky', run.id)).filter((r) => r.status === 'error');
    assert.deepEqual(
      errors.map((r) => r.case_id),
      [rejected],
    );
    assert.match(errors[0].error, /^scoring failed after retries: the openai endpoint answered HTTP 400/);
    // A rejected request is not asked again: not by the SDK, the batch, nor a retried activity.
    assert.equal(asked() - before, 1);
  });
});
