import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { judgedSuite } from '../helpers/judged-suite';
import { promoteCases } from '../helpers/promoted-cases';
import { throttledAbove } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const CASES = 200;
const JUDGE_LIMIT = 16;
const CONCURRENCY = 64;

// A case whose message ends in 7 is judged not equivalent: 20 of the 200 fail.
const failsOnPurpose = (message: string): boolean => message.endsWith('7');

describe('adaptive judge concurrency on 429', () => {
  const judge = judgeReplies({ match: (ask) => !failsOnPurpose(ask.user_input), delayMs: 300 });
  const suite = judgedSuite(throttledAbove(JUDGE_LIMIT, '1', judge), {
    EVAL_CONCURRENCY: String(CONCURRENCY),
    WORKSPACE_EVAL_CONCURRENCY: String(CONCURRENCY),
  });

  it(`scores ${CASES} cases at concurrency ${CONCURRENCY} against a judge that takes ${JUDGE_LIMIT} at once, with fewer 429s than cases`, async function () {
    this.timeout(300_000);
    const api = evalApi(suite.platform.app, await createTenant(suite.platform.runtime.db, 'owner'));
    await api.agent('throttled', 'gpt-4o');
    await api.connect('openai', 'sk-aimd-key-0000000000', suite.llm.baseUrl);
    const set = await api.evalSet('throttled', { name: 'many', judge_samples: 1 });
    const cases = await promoteCases(api, 'throttled', set.id, CASES);

    const run = await api.trigger('throttled', set.id);
    const done = await api.waitForEnd('throttled', run.id, 240_000);
    assert.equal(done.status, 'completed', done.error);
    const failing = cases.filter((c) => failsOnPurpose(c.message)).length;
    assert.deepEqual(done.summary.counts, { total: CASES, passed: CASES - failing, failed: failing, error: 0 });

    const stored = await sql<{ case_id: string; status: string; n: string }>`
      SELECT case_id, min(status) AS status, count(*) AS n FROM case_results WHERE run_id = ${run.id} GROUP BY case_id`.execute(
      suite.platform.runtime.db,
    );
    const expected = new Map(cases.map((c) => [c.id, failsOnPurpose(c.message) ? 'failed' : 'passed']));
    assert.equal(stored.rows.length, CASES);
    for (const row of stored.rows) {
      assert.equal(row.n, '1', `case ${row.case_id} scored ${row.n} times`);
      assert.equal(row.status, expected.get(row.case_id), `case ${row.case_id}`);
    }

    const asked = suite.llm.requests.filter((req) => judgeAsk(req).user_input?.startsWith('case '));
    const throttled = asked.filter((req) => req.inFlight > JUDGE_LIMIT);
    assert.ok(throttled.length > 0, 'the judge never throttled: the test did not exercise the limiter');
    assert.ok(throttled.length < CASES, `${throttled.length} 429s for ${CASES} cases`);

    // Once the first burst has halved the limit, the key's calls stay near what the judge takes: the limit grows by
    // one per window past it, meets a burst of 429s and halves again. Without the limiter every call past 16 meets one.
    const firstThrottled = asked.indexOf(throttled[0]);
    const settled = asked.slice(firstThrottled + CONCURRENCY);
    assert.ok(settled.length > CASES / 4, `only ${settled.length} calls after the first burst`);
    const settledThrottled = settled.filter((req) => req.inFlight > JUDGE_LIMIT).length;
    assert.ok(settledThrottled <= settled.length / 5, `${settledThrottled} of ${settled.length} calls met a 429`);
    // … and near it, not starved: the judge still had close to 16 calls at once.
    const settledMax = Math.max(...settled.map((req) => req.inFlight));
    assert.ok(settledMax >= JUDGE_LIMIT - 4, `at most ${settledMax} calls in flight after the first burst`);

    // The storm spent little of any case's budget of judge calls, and the calls shared kept-alive connections.
    const budgets = await sql<{ most: number }>`
      SELECT max(calls) AS most FROM case_judge_calls WHERE run_id = ${run.id}`.execute(suite.platform.runtime.db);
    assert.ok(budgets.rows[0].most <= 5, `a case made ${budgets.rows[0].most} judge calls`);
    assert.ok(
      suite.llm.connections() < asked.length / 2,
      `${suite.llm.connections()} connections for ${asked.length} calls`,
    );
  });
});
