import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createApp } from '../../api/app';
import { RELAY_APPLICATION_NAME } from '../../db/eval-progress';
import { createDb, type Db } from '../../db/database';
import { upsertMembership } from '../../db/member.repository';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { assertLogsClean } from '../helpers/logs';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { openRelay, refusedStatus, serveWithRelay, type RelayClient, type ServedApi } from '../helpers/relay-client';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

const CASES = 12;
// Every fourth case is judged not equivalent (failed); case 5 had a guardrail fire (failed on safety).
const judge = judgeReplies({ match: (ask) => !/#(0|4|8)\b/.test(ask.user_input) });
const conversation = (i: number): Record<string, unknown> => ({
  session_input: { message: `question #${i}` },
  tool_calls: [{ tool_name: 'lookup', tool_args: { id: i } }],
  final_response: `answer ${i}`,
  ...(i === 5 ? { guardrail_events: [{ guardrail: 'pii_filter', stage: 'output' }] } : {}),
});

const isCase =
  (runId: string) =>
  (m: any): boolean =>
    m.run_id === runId && m.type === 'case_result';
const isEnd =
  (runId: string) =>
  (m: any): boolean =>
    m.run_id === runId && m.type === 'run_status';

/**
 * Checks one client's messages for a run: a snapshot first (consistent: scored_cases = its results), then pairs of
 * progress and case_result with scored counting up by one from the snapshot, then run_status last; every case exactly
 * once across snapshot and deltas, each result equal to the API's. Returns the case ids seen as deltas.
 */
function assertOrderedFeed(
  messages: any[],
  runId: string,
  api: { run: any; results: any[] },
): { snapshotIds: string[]; deltaIds: string[] } {
  const mine = messages.filter((m) => m.run_id === runId);
  const [snapshot, ...rest] = mine;
  assert.equal(snapshot.type, 'snapshot');
  assert.equal(snapshot.run.id, runId);
  assert.equal(snapshot.run.scored_cases, snapshot.results.length);
  const end = rest.pop();
  assert.deepEqual(end, {
    type: 'run_status',
    run_id: runId,
    status: 'completed',
    summary: api.run.summary,
    error: null,
  });
  assert.equal(rest.length % 2, 0, `deltas come in progress/case_result pairs: ${rest.map((m) => m.type)}`);
  const byCase = new Map(api.results.map((r) => [r.case_id, r]));
  const deltaIds: string[] = [];
  for (let i = 0; i < rest.length; i += 2) {
    const [progress, result] = [rest[i], rest[i + 1]];
    assert.deepEqual(progress, {
      type: 'progress',
      run_id: runId,
      scored: snapshot.run.scored_cases + i / 2 + 1,
      total: CASES,
    });
    assert.equal(result.type, 'case_result');
    assert.deepEqual(result.result, byCase.get(result.result.case_id));
    deltaIds.push(result.result.case_id);
  }
  for (const result of snapshot.results) assert.deepEqual(result, byCase.get(result.case_id));
  const snapshotIds = snapshot.results.map((r: any) => r.case_id);
  const all = [...snapshotIds, ...deltaIds];
  assert.equal(new Set(all).size, all.length, 'no case is repeated');
  assert.deepEqual([...all].sort(), [...byCase.keys()].sort(), 'no case is missing');
  return { snapshotIds, deltaIds };
}

// The runs the judge gate paces re-run the same set: judged afresh, not answered by the verdicts cached before.
const JUDGED_AFRESH = { no_cache: true };

describe('eval progress over WebSocket', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let gate: JudgeGate;
  let owner: Tenant;
  let api: ReturnType<typeof evalApi>;
  let second: Db;
  let apiA: ServedApi;
  let apiB: ServedApi;
  const clients: RelayClient[] = [];

  const connect = async (served: ServedApi, token = owner.token): Promise<RelayClient> => {
    const client = await openRelay(served.wsUrl, { protocolToken: token });
    clients.push(client);
    return client;
  };
  const settled = async (runId: string): Promise<{ run: any; results: any[] }> => ({
    run: await api.waitForEnd('support', runId),
    results: await api.results('support', runId),
  });

  before(async () => {
    const h = await harness();
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1', EVAL_CONCURRENCY: '2' } });
    await platform.startWorker();
    llm = await startScriptedLlm(async (req) => {
      await gate.acquire();
      return judge(req);
    });
    owner = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, owner);
    await api.agent('support', 'gpt-4o');
    await api.connect('openai', 'sk-relay-test-openai-key-0001', llm.baseUrl);
    const set = await api.evalSet('support', { name: 'progress' });
    for (let i = 0; i < CASES; i++)
      await api.promote('support', (await api.importRun('support', conversation(i))).id, set.id, `case ${i}`);

    // Two api instances over one database: the test platform's app, and a second app with its own pool.
    const deps = { config: platform.config, db: platform.runtime.db, logger: platform.logger };
    apiA = await serveWithRelay(platform.app, deps);
    second = createDb(h.databaseUrl);
    const appB = createApp({
      ...deps,
      db: second,
      vault: platform.runtime.vault,
      temporal: platform.runtime.temporal.client,
    });
    apiB = await serveWithRelay(appB, { ...deps, db: second });
  });

  beforeEach(() => {
    gate = judgeGate();
  });

  afterEach(() => {
    gate.release(Infinity);
    for (const client of clients.splice(0)) client.close();
  });

  after(async () => {
    await apiA?.close();
    await apiB?.close();
    await second?.destroy();
    await llm?.close();
    await platform?.close();
  });

  it('refuses the upgrade with 401 without a token, with an unknown token, and with a token only in the query string', async () => {
    const none = await refusedStatus(apiA.wsUrl, {});
    assert.equal(none.status, 401);
    assert.equal(none.body.error.code, 'unauthorized');
    assert.equal((await refusedStatus(apiA.wsUrl, { protocolToken: 'assay_not-a-real-token' })).status, 401);
    assert.equal((await refusedStatus(apiA.wsUrl, { header: 'Bearer assay_not-a-real-token' })).status, 401);
    assert.equal(
      (await refusedStatus(`${apiA.wsUrl}?token=${owner.token}&access_token=${owner.token}`, {})).status,
      401,
    );
  });

  it('accepts the token as a subprotocol (answering assay.v1, never echoing the token) or as an Authorization header', async () => {
    const browserLike = await connect(apiA);
    assert.equal(browserLike.socket.protocol, 'assay.v1');
    const headerClient = await openRelay(apiA.wsUrl, { header: `Bearer ${owner.token}` });
    clients.push(headerClient);
    headerClient.send({ type: 'nonsense' });
    assert.equal((await headerClient.waitFor((m) => m.type === 'error')).code, 'bad_request');
  });

  it("answers not_found for another workspace's run or an unknown id, and forbidden without evals:view", async () => {
    gate.release(Infinity);
    const run = await api.trigger('support', 'progress');
    const stranger = await createTenant(platform.runtime.db, 'owner');
    const client = await connect(apiA, stranger.token);
    for (const runId of [run.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      client.subscribe(runId);
      assert.deepEqual(await client.waitFor((m) => m.type === 'error' && m.run_id === runId), {
        type: 'error',
        code: 'not_found',
        message: 'eval run not found',
        run_id: runId,
      });
    }
    // A member of the run's workspace whose role grants no permission at all.
    await upsertMembership(platform.runtime.db, owner.workspaceId, stranger.userId, 'guest');
    client.subscribe(run.id);
    const refusal = await client.waitFor((m) => m.type === 'error' && m.run_id === run.id && m.code !== 'not_found');
    assert.equal(refusal.code, 'forbidden');
    assert.ok(!client.messages.some((m) => m.type === 'snapshot'));
    await api.waitForEnd('support', run.id);
  });

  it('sends a snapshot, then every case once in commit order, then the summary — also to clients that join half-way', async () => {
    const run = await api.trigger('support', 'progress', JUDGED_AFRESH);
    const early = await connect(apiA);
    early.subscribe(run.id);
    const first = await early.waitFor((m) => m.type === 'snapshot');
    assert.deepEqual(first.results, []);

    gate.release(4);
    await early.waitForCount(isCase(run.id), 4);
    // With the judge held, nothing else commits: a client joining now sees exactly those four in its snapshot.
    const halfway = await connect(apiA);
    halfway.subscribe(run.id);
    assert.equal((await halfway.waitFor((m) => m.type === 'snapshot')).results.length, 4);

    gate.release(3);
    await halfway.waitForCount(isCase(run.id), 3);
    // This one subscribes while the rest of the run is being recorded: its snapshot races the notifications.
    const racing = await connect(apiB);
    racing.subscribe(run.id);
    gate.release(Infinity);

    for (const client of [early, halfway, racing]) await client.waitFor(isEnd(run.id), 60_000);
    const final = await settled(run.id);
    assert.equal(final.run.summary.counts.total, CASES);
    assert.equal(final.run.summary.counts.failed, 4);
    assert.equal(assertOrderedFeed(early.messages, run.id, final).deltaIds.length, CASES);
    const joined = assertOrderedFeed(halfway.messages, run.id, final);
    assert.equal(joined.snapshotIds.length, 4);
    assert.equal(joined.deltaIds.length, CASES - 4);
    assertOrderedFeed(racing.messages, run.id, final);
    // Everyone saw the deltas in the same (commit) order.
    assert.deepEqual(
      joined.deltaIds,
      early.messages
        .filter(isCase(run.id))
        .slice(4)
        .map((m) => m.result.case_id),
    );
    const guarded = final.results.find((r) => r.case_name === 'case 5');
    assert.deepEqual(guarded.criteria.safety.detail.guardrails, ['pii_filter']);
    assertLogsClean(platform.logs, [owner.token]);
  });

  it('forwards the events of a run driven by one worker through two api instances on one database', async () => {
    const run = await api.trigger('support', 'progress', JUDGED_AFRESH);
    const viaA = await connect(apiA);
    const viaB = await connect(apiB);
    viaA.subscribe(run.id);
    viaB.subscribe(run.id);
    for (const client of [viaA, viaB])
      assert.deepEqual((await client.waitFor((m) => m.type === 'snapshot')).results, []);
    gate.release(Infinity);
    for (const client of [viaA, viaB]) await client.waitFor(isEnd(run.id), 60_000);
    const final = await settled(run.id);
    const [a, b] = [assertOrderedFeed(viaA.messages, run.id, final), assertOrderedFeed(viaB.messages, run.id, final)];
    assert.equal(a.deltaIds.length, CASES);
    assert.deepEqual(b.deltaIds, a.deltaIds);
  });

  it('LISTENs again after its connection is killed and fills the gap from the stored results', async () => {
    const run = await api.trigger('support', 'progress', JUDGED_AFRESH);
    const client = await connect(apiA);
    client.subscribe(run.id);
    await client.waitFor((m) => m.type === 'snapshot');
    gate.release(3);
    await client.waitForCount(isCase(run.id), 3);

    const listeners = sql<{
      pid: number;
    }>`SELECT pid FROM pg_stat_activity WHERE application_name = ${RELAY_APPLICATION_NAME} AND datname = current_database()`;
    const before = (await listeners.execute(platform.runtime.db)).rows.map((r) => r.pid);
    assert.equal(before.length, 2, 'one LISTEN connection per api instance');
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY(${before})`.execute(
      platform.runtime.db,
    );
    gate.release(3); // recorded while nobody listens, or just after: either way each must arrive once
    const deadline = Date.now() + 20_000;
    for (;;) {
      const now = (await listeners.execute(platform.runtime.db)).rows.map((r) => r.pid);
      if (now.length === 2 && now.every((pid) => !before.includes(pid))) break;
      assert.ok(Date.now() < deadline, 'the relays did not reconnect');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    gate.release(Infinity);
    await client.waitFor(isEnd(run.id), 60_000);
    const final = await settled(run.id);
    const seen = client.messages.filter(isCase(run.id)).map((m) => m.result.case_id);
    assert.equal(new Set(seen).size, seen.length, 'no case is repeated');
    assert.deepEqual([...seen].sort(), final.results.map((r) => r.case_id).sort());
    assert.deepEqual(client.messages.filter(isEnd(run.id)), [
      { type: 'run_status', run_id: run.id, status: 'completed', summary: final.run.summary, error: null },
    ]);
  });

  it('lists the cases a run scores (its set as of the trigger) so a client can show each one waiting', async () => {
    gate.release(Infinity);
    const set = await api.evalSet('support', { name: 'growing' });
    const first = await api.promote(
      'support',
      (await api.importRun('support', conversation(1))).id,
      set.id,
      'before the run',
    );
    const run = await api.trigger('support', set.id);
    await api.promote('support', (await api.importRun('support', conversation(2))).id, set.id, 'after the run');
    const listed = (await api.send('get', `/api/ai-agents/support/eval-runs/${run.id}/cases`, 200)).data;
    assert.deepEqual(
      listed.map((c: any) => [c.id, c.name]),
      [[first.id, 'before the run']],
    );
    assert.equal(listed[0].expected_final_response, 'answer 1');
    await api.waitForEnd('support', run.id);
    const stranger = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await stranger.agent('support', 'gpt-4o');
    await stranger.send('get', `/api/ai-agents/support/eval-runs/${run.id}/cases`, 404);
  });

  it('refuses a subscription beyond the per-connection cap until one is released', async () => {
    gate.release(Infinity);
    const capped = await serveWithRelay(
      platform.app,
      { config: platform.config, db: platform.runtime.db, logger: platform.logger },
      { maxSubscriptions: 2 },
    );
    try {
      const runs: any[] = [];
      for (let i = 0; i < 3; i++)
        runs.push(await api.waitForEnd('support', (await api.trigger('support', 'progress')).id));
      const client = await connect(capped);
      client.subscribe(runs[0].id);
      client.subscribe(runs[1].id);
      client.subscribe(runs[2].id);
      const refusal = await client.waitFor((m) => m.type === 'error');
      assert.equal(refusal.code, 'too_many_subscriptions');
      assert.equal(refusal.run_id, runs[2].id);
      await client.waitForCount((m) => m.type === 'snapshot', 2);
      client.send({ type: 'unsubscribe', run_id: runs[0].id });
      client.subscribe(runs[2].id);
      const snapshot = await client.waitFor((m) => m.type === 'snapshot' && m.run_id === runs[2].id);
      assert.equal(snapshot.run.status, 'completed');
      assert.equal(snapshot.results.length, CASES);
    } finally {
      await capped.close();
    }
  });

  it('terminates a socket that stops answering pings and keeps one that answers', async () => {
    const pinging = await serveWithRelay(
      platform.app,
      { config: platform.config, db: platform.runtime.db, logger: platform.logger },
      { pingIntervalMs: 100 },
    );
    try {
      const healthy = await openRelay(pinging.wsUrl, { protocolToken: owner.token });
      const deaf = await openRelay(pinging.wsUrl, { protocolToken: owner.token }, { autoPong: false });
      clients.push(healthy, deaf);
      const { code } = await deaf.closed;
      assert.equal(code, 1006, 'terminated without a close handshake');
      assert.equal(healthy.socket.readyState, healthy.socket.OPEN);
      healthy.send({ type: 'unsubscribe', run_id: 'anything' });
      assert.ok(await healthy.waitFor((m) => m.type === 'unsubscribed'));
    } finally {
      await pinging.close();
    }
  });

  it('closes a consumer whose backlog does not drain with 1013, and keeps a fast reader of the same snapshots', async () => {
    gate.release(Infinity);
    // Six cases of ~300 kB each make every snapshot of a run of this set ~2 MB.
    const big = await api.evalSet('support', { name: 'bulky' });
    for (let i = 0; i < 6; i++) {
      const text = `bulky answer ${i} `.repeat(9_000);
      await api.promote(
        'support',
        (await api.importRun('support', { session_input: { message: `bulky #${i}` }, final_response: text })).id,
        big.id,
      );
    }
    const runs: string[] = [];
    for (let i = 0; i < 10; i++) runs.push((await api.trigger('support', big.id)).id);
    for (const runId of runs) await api.waitForEnd('support', runId, 60_000);
    // The reader must keep up within the drain timeout even on a loaded machine (2 MB snapshots): 2 s, not less.
    const limits = { maxBufferedBytes: 256 * 1024, drainTimeoutMs: 2_000 };
    const shedding = await serveWithRelay(
      platform.app,
      { config: platform.config, db: platform.runtime.db, logger: platform.logger },
      limits,
    );
    try {
      const reader = await openRelay(shedding.wsUrl, { protocolToken: owner.token });
      clients.push(reader);
      for (const runId of runs) reader.subscribe(runId);
      await reader.waitForCount((m) => m.type === 'snapshot', runs.length);
      assert.equal(reader.socket.readyState, reader.socket.OPEN);

      const stalled = await openRelay(shedding.wsUrl, { protocolToken: owner.token });
      clients.push(stalled);
      stalled.socket.pause();
      for (const runId of runs) stalled.subscribe(runId);
      const shedLine = (): string | undefined => platform.logs.find((line) => line.includes('closed a slow consumer'));
      const deadline = Date.now() + 30_000;
      while (!shedLine()) {
        assert.ok(Date.now() < deadline, 'the stalled consumer was never closed');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      stalled.socket.resume();
      assert.equal((await stalled.closed).code, 1013);
      assert.ok(JSON.parse(shedLine() ?? '{}').buffered > limits.maxBufferedBytes);
    } finally {
      await shedding.close();
    }
  });
});
