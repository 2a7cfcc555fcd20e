import assert from 'node:assert/strict';
import request from 'supertest';
import { storeCachedVerdict } from '../../db/judge-verdict-cache.repository';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { assertLogsClean } from '../helpers/logs';
import { judgedSuite } from '../helpers/judged-suite';
import { promoteCases, type PromotedCase } from '../helpers/promoted-cases';
import { createTenant } from '../helpers/tenants';

const API_KEY = 'sk-judge-cache-key-5e1c0d';
const CASES = 3;
const SAMPLES = 2;
// Each case is judged on its expected response and its rubrics, SAMPLES times each.
const CALLS_PER_CASE = 2 * SAMPLES;

describe('the judge verdict cache', () => {
  const suite = judgedSuite(judgeReplies({}));

  // A workspace with an agent and a set of promoted cases (each with a rubric), and a counter of the judge calls
  // asked about exactly those cases (the scripted judge counts them).
  async function cachedSet(agent: string) {
    const tenant = await createTenant(suite.platform.runtime.db, 'owner');
    const api = evalApi(suite.platform.app, tenant);
    await api.agent(agent, 'gpt-4o');
    await api.connect('openai', API_KEY, suite.llm.baseUrl);
    const set = await api.evalSet(agent, { name: 'cached', judge_samples: SAMPLES });
    const cases = await promoteCases(api, agent, set.id, CASES, agent);
    for (const c of cases)
      await api.send('patch', `/api/ai-agents/${agent}/eval-sets/${set.id}/cases/${c.id}`, 200, {
        rubrics: ['The answer is polite.'],
      });
    const messages = new Set(cases.map((c) => c.message));
    const counted = suite.llm.requests.length;
    const calls = (since = counted) =>
      suite.llm.requests.slice(since).filter((req) => messages.has(judgeAsk(req).user_input));
    const run = async (body: Record<string, unknown> = {}) => {
      const before = suite.llm.requests.length;
      const done = await api.waitForEnd(agent, (await api.trigger(agent, set.id, body)).id);
      assert.equal(done.status, 'completed', done.error);
      const results = await api.results(agent, done.id);
      return { run: done, results, asked: calls(before) };
    };
    return { tenant, api, set, cases, run };
  }

  const byCase = (results: any[]) => new Map(results.map((r) => [r.case_id, r]));
  const askedAbout = (asked: ReturnType<typeof judgeAsk>[], c: PromotedCase) =>
    asked.filter((ask) => ask.user_input === c.message).length;

  it('makes no judge call for an unchanged set run again, and scores it the same', async function () {
    this.timeout(60_000);
    const { run } = await cachedSet('unchanged');
    const first = await run();
    assert.equal(first.asked.length, CASES * CALLS_PER_CASE);
    assert.equal(first.run.no_cache, false);
    assert.deepEqual(first.run.summary.judge_cache, { hits: 0, misses: CASES * CALLS_PER_CASE });
    for (const r of first.results) assert.deepEqual(r.judge_cache, { hits: 0, misses: CALLS_PER_CASE });

    const second = await run();
    assert.equal(second.asked.length, 0, 'the scripted judge was not called');
    assert.deepEqual(second.run.summary.judge_cache, { hits: CASES * CALLS_PER_CASE, misses: 0 });
    const earlier = byCase(first.results);
    for (const r of second.results) {
      assert.deepEqual(r.judge_cache, { hits: CALLS_PER_CASE, misses: 0 });
      assert.equal(r.judge_usage.calls, 0, 'a cached verdict costs nothing');
      assert.equal(r.status, 'passed');
      assert.deepEqual(r.criteria, earlier.get(r.case_id).criteria);
    }
    assert.deepEqual(second.run.summary.avg_score, first.run.summary.avg_score);
  });

  it("asks again only for the case whose expected response changed, and only that criterion's samples", async function () {
    this.timeout(60_000);
    const { api, set, cases, run } = await cachedSet('changed');
    await run();
    const changed = cases[1];
    await api.send('patch', `/api/ai-agents/changed/eval-sets/${set.id}/cases/${changed.id}`, 200, {
      expected_final_response: 'A different answer.',
    });
    const again = await run();
    assert.equal(again.asked.length, SAMPLES, 'exactly the changed criterion of the changed case');
    const asked = again.asked.map(judgeAsk);
    assert.equal(askedAbout(asked, changed), SAMPLES);
    assert.ok(
      asked.every((ask) => ask.task === 'final_response_match' && ask.expected_response === 'A different answer.'),
    );
    const results = byCase(again.results);
    assert.deepEqual(results.get(changed.id).judge_cache, { hits: SAMPLES, misses: SAMPLES });
    assert.equal(results.get(changed.id).status, 'failed', 'judged afresh: the responses now differ');
    for (const c of [cases[0], cases[2]])
      assert.deepEqual(results.get(c.id).judge_cache, { hits: CALLS_PER_CASE, misses: 0 });

    // More samples than were cached: only the new sample indexes are asked.
    const more = await run({ judge_samples: SAMPLES + 1 });
    assert.equal(more.asked.length, CASES * 2, 'one new sample per judged criterion of each case');
  });

  it('judges every sample afresh with no_cache, stores the choice and reports no cache use', async function () {
    this.timeout(60_000);
    const { run } = await cachedSet('opted-out');
    await run();
    const fresh = await run({ no_cache: true });
    assert.equal(fresh.run.no_cache, true);
    assert.equal(fresh.asked.length, CASES * CALLS_PER_CASE);
    assert.deepEqual(fresh.run.summary.judge_cache, { hits: 0, misses: 0 });
    for (const r of fresh.results) assert.equal(r.judge_usage.calls, CALLS_PER_CASE);
  });

  it('caches per workspace, only usable replies, and keeps no key and no prompt', async function () {
    this.timeout(60_000);
    const first = await cachedSet('isolated');
    await first.run();
    // The same cases in another workspace are judged afresh.
    const other = await cachedSet('isolated');
    assert.equal((await other.run()).asked.length, CASES * CALLS_PER_CASE);

    // An unusable reply is never cached: the sample is asked again in the next run.
    const unusable = await cachedSet('unusable');
    const garbled = unusable.cases[0].message;
    suite.llm.script((req) =>
      judgeAsk(req).user_input === garbled ? { content: 'no verdict' } : judgeReplies({})(req),
    );
    try {
      const once = await unusable.run();
      assert.equal(byCase(once.results).get(unusable.cases[0].id).status, 'error');
      const twice = await unusable.run();
      assert.equal(askedAbout(twice.asked.map(judgeAsk), unusable.cases[0]), 3 * CALLS_PER_CASE);
      assert.equal(twice.asked.length, 3 * CALLS_PER_CASE, 'the usable verdicts of the other cases were cached');
    } finally {
      suite.llm.script(judgeReplies({}));
    }

    const { rows } = await suite.platform.runtime.db
      .selectFrom('judge_verdict_cache')
      .select(['key', 'reply'])
      .where('workspace_id', '=', first.tenant.workspaceId)
      .execute()
      .then((found) => ({ rows: found }));
    assert.equal(rows.length, CASES * CALLS_PER_CASE);
    const stored = JSON.stringify(rows);
    assert.ok(!stored.includes(API_KEY), 'no key');
    for (const c of first.cases) assert.ok(!stored.includes(c.message), 'no prompt');
    for (const row of rows) assert.match(row.key, /^[0-9a-f]{64}$/);
    assertLogsClean(suite.platform.logs, [API_KEY]);
  });

  it('keeps at most the bound per workspace, evicting the oldest', async () => {
    const db = suite.platform.runtime.db;
    const tenant = await createTenant(db, 'owner');
    const reply = {
      content: '{"equivalent": true}',
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) await storeCachedVerdict(db, tenant.workspaceId, key, reply, 3);
    await storeCachedVerdict(db, tenant.workspaceId, 'k5', reply, 3);
    const keys = await db
      .selectFrom('judge_verdict_cache')
      .select('key')
      .where('workspace_id', '=', tenant.workspaceId)
      .orderBy('key')
      .execute();
    assert.deepEqual(
      keys.map((row) => row.key),
      ['k3', 'k4', 'k5'],
    );
  });

  it('refuses a no_cache that is not a boolean, naming the field', async () => {
    const { tenant, set } = await cachedSet('bad-input');
    const res = await request(suite.platform.app)
      .post(`/api/ai-agents/bad-input/eval-sets/${set.id}/run`)
      .set(tenant.auth)
      .send({ no_cache: 'yes' });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'validation_failed');
    assert.match(JSON.stringify(res.body), /no_cache/);
  });
});
