import assert from 'node:assert/strict';
import { LIMITS } from '../../domain/limits';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

// Equivalent when the texts are equal; a response of "mumble" gets no usable verdict, so its case ends `error`.
const judge = judgeReplies({});
const MUMBLE = 'mumble';

const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'] as const;
type Name = (typeof NAMES)[number];

const conversation = (name: string, finalResponse: string, tool = 'lookup'): Record<string, unknown> => ({
  session_input: { message: `question ${name}` },
  tool_calls: [{ tool_name: tool, tool_args: { q: name } }],
  final_response: finalResponse,
});

describe('comparing an eval run with a baseline', function () {
  this.timeout(180_000);
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let api: ReturnType<typeof evalApi>;
  // Open except in the test that needs a run still running.
  let gate: JudgeGate = judgeGate();
  gate.release(Infinity);
  const cases = {} as Record<Name, string>;
  const bad = {} as Record<Name, string>;
  let baseline: any;
  let head: any;
  let otherRun: any;

  const compare = async (runId: string, query: string, status = 200): Promise<any> =>
    api.send('get', `/api/ai-agents/support/eval-runs/${runId}/compare?${query}`, status);
  const runsTagged = async (query: string): Promise<any> =>
    api.send('get', `/api/ai-agents/support/eval-sets/checkout/runs?${query}`, 200);

  before(async () => {
    const h = await harness();
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(async (req) => {
      await gate.acquire();
      return judgeAsk(req).actual_response === MUMBLE ? { content: 'Well, it depends.' } : judge(req);
    });
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.agent('support', 'gpt-4o');
    await api.connect('openai', 'sk-compare-test-openai-key-01', llm.baseUrl);
    await api.evalSet('support', { name: 'checkout' });
    for (const name of NAMES.filter((n) => n !== 'golf')) {
      const source = await api.importRun('support', conversation(name, `answer ${name}`));
      cases[name] = (await api.promote('support', source.id, 'checkout', name)).id;
    }
    for (const name of NAMES) bad[name] = (await api.importRun('support', conversation(name, 'wrong', 'guess'))).id;
    const mumble = await api.importRun('support', conversation('bravo', MUMBLE));
    // delta fails in both runs; in the head run its agent called one tool more and spent 30 tokens more.
    const deltaBase: Record<string, unknown> = {
      ...conversation('delta', 'wrong', 'guess'),
      token_usage: { prompt_tokens: 100, completion_tokens: 20 },
    };
    const deltaBefore = await api.importRun('support', deltaBase);
    const deltaAfter = await api.importRun('support', {
      ...deltaBase,
      tool_calls: [...(deltaBase.tool_calls as unknown[]), { tool_name: 'guess', tool_args: { q: 'again' } }],
      token_usage: { total_tokens: 150 },
    });

    // Baseline: charlie and delta fail; every other case passes from its source.
    const explicitBase = {
      run_selection: 'explicit',
      conversations: { [cases.charlie]: bad.charlie, [cases.delta]: deltaBefore.id },
    };
    baseline = await api.trigger('support', 'checkout', { ...explicitBase, tags: ['main', 'sha:base'] });
    baseline = await api.waitForEnd('support', baseline.id);
    assert.equal(baseline.status, 'completed', baseline.error);

    // Between the runs foxtrot is deleted and golf added; then alpha fails, bravo errors, delta still fails.
    await api.send('delete', `/api/ai-agents/support/eval-sets/checkout/cases/${cases.foxtrot}`, 204);
    const golf = await api.importRun('support', conversation('golf', 'answer golf'));
    cases.golf = (await api.promote('support', golf.id, 'checkout', 'golf')).id;
    const explicitHead = {
      run_selection: 'explicit',
      conversations: { [cases.alpha]: bad.alpha, [cases.bravo]: mumble.id, [cases.delta]: deltaAfter.id },
    };
    head = await api.trigger('support', 'checkout', { ...explicitHead, tags: ['sha:head', 'pr', 'sha:head'] });
    head = await api.waitForEnd('support', head.id);
    assert.equal(head.status, 'completed', head.error);

    await api.evalSet('support', { name: 'other' });
    const source = await api.importRun('support', conversation('other', 'answer other'));
    await api.promote('support', source.id, 'other', 'other');
    otherRun = await api.waitForEnd('support', (await api.trigger('support', 'other', { tags: ['main'] })).id);
  });

  after(async () => {
    gate.release(Infinity);
    await llm?.close();
    await platform?.close();
  });

  it('stores the tags given at trigger time, each once, on the run JSON', async () => {
    assert.deepEqual(baseline.tags, ['main', 'sha:base']);
    assert.deepEqual(head.tags, ['sha:head', 'pr']);
    const other = await api.send('get', `/api/ai-agents/support/eval-runs/${otherRun.id}`, 200);
    assert.deepEqual(other.data.tags, ['main']);
  });

  it('gives each case its transition, statuses and criterion deltas, regressed first', async () => {
    const { data } = await compare(head.id, `baseline=${baseline.id}`);
    assert.equal(data.run_id, head.id);
    assert.equal(data.baseline_run_id, baseline.id);
    assert.equal(data.next_cursor, null);
    assert.deepEqual(
      data.cases.map((c: any) => [c.case_name, c.transition, c.status, c.baseline_status, c.case_id]),
      [
        ['alpha', 'regressed', 'failed', 'passed', cases.alpha],
        ['bravo', 'regressed', 'error', 'passed', cases.bravo],
        ['charlie', 'fixed', 'passed', 'failed', cases.charlie],
        ['delta', 'still_failing', 'failed', 'failed', cases.delta],
        ['golf', 'new', 'passed', null, cases.golf],
        ['foxtrot', 'removed', null, 'passed', cases.foxtrot],
        ['echo', 'still_passing', 'passed', 'passed', cases.echo],
      ],
    );
    const byName = Object.fromEntries(data.cases.map((c: any) => [c.case_name, c.criteria]));
    assert.deepEqual(byName.alpha, {
      final_response_match: { run: 0, baseline: 1, delta: -1 },
      rubric_based: { run: null, baseline: null, delta: null },
      safety: { run: 1, baseline: 1, delta: 0 },
      tool_trajectory_avg_score: { run: 0, baseline: 1, delta: -1 },
    });
    assert.deepEqual(byName.charlie.final_response_match, { run: 1, baseline: 0, delta: 1 });
    assert.deepEqual(byName.golf.final_response_match, { run: 1, baseline: null, delta: null });
    assert.deepEqual(byName.foxtrot.final_response_match, { run: null, baseline: 1, delta: null });
    assert.equal(byName.bravo.final_response_match?.run ?? null, null, 'an errored criterion has no score');
  });

  it('summarises every case: transition counts, pass rates over the results and criterion means', async () => {
    const { data } = await compare(head.id, `baseline=${baseline.id}&limit=1`);
    const { criteria, pass_rate, ...counts } = data.summary;
    assert.deepEqual(counts, { regressed: 2, fixed: 1, still_failing: 1, new: 1, removed: 1, still_passing: 1 });
    // Baseline: alpha, bravo, echo, foxtrot passed of 6; head: charlie, echo, golf of 6.
    assert.deepEqual(pass_rate, { run: 3 / 6, baseline: 4 / 6, delta: 3 / 6 - 4 / 6 });
    assert.deepEqual(pass_rate.run, head.summary.pass_rate);
    assert.deepEqual(pass_rate.baseline, baseline.summary.pass_rate);
    for (const key of ['final_response_match', 'tool_trajectory_avg_score', 'safety']) {
      const [run, base] = [head.summary.avg_score[key], baseline.summary.avg_score[key]];
      assert.deepEqual(criteria[key], { run, baseline: base, delta: run - base }, key);
    }
    assert.equal(criteria.final_response_match.baseline, 4 / 6);
    assert.deepEqual(criteria.rubric_based, { run: null, baseline: null, delta: null });
  });

  it('pages the cases in comparison order, the summary the same on every page', async () => {
    const whole = (await compare(head.id, `baseline=${baseline.id}`)).data;
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `baseline=${baseline.id}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const { data } = await compare(head.id, query);
      assert.ok(data.cases.length <= 3);
      assert.deepEqual(data.summary, whole.summary);
      seen.push(...data.cases);
      cursor = data.next_cursor;
      pages++;
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.deepEqual(seen, whole.cases);
    const forged = Buffer.from(JSON.stringify(['0', 'alpha', 'not-a-uuid'])).toString('base64url');
    for (const bad of [forged, '%%%', 'x'.repeat(LIMITS.pageCursorChars + 1)]) {
      const res = await compare(head.id, `baseline=${baseline.id}&cursor=${encodeURIComponent(bad)}`, 422);
      assert.equal(res.error.details[0].field, 'cursor');
    }
    const tooMany = await compare(head.id, `baseline=${baseline.id}&limit=${LIMITS.pageMax + 1}`, 422);
    assert.equal(tooMany.error.details[0].field, 'limit');
  });

  it('resolves last-completed and tag:<name> to the newest completed run of the set', async () => {
    assert.equal((await compare(head.id, 'baseline=last-completed')).data.baseline_run_id, baseline.id);
    assert.equal((await compare(head.id, 'baseline=tag:main')).data.baseline_run_id, baseline.id);
    // tag: any run of the set other than this one, even a newer one; other sets' runs never.
    assert.equal((await compare(baseline.id, 'baseline=tag:sha:head')).data.baseline_run_id, head.id);
    const reversed = (await compare(baseline.id, `baseline=${head.id}`)).data.summary;
    assert.deepEqual([reversed.regressed, reversed.fixed, reversed.new, reversed.removed], [1, 2, 1, 1]);
  });

  it('answers 404 baseline_not_found when a keyword finds no run', async () => {
    for (const query of ['baseline=last-completed', 'baseline=tag:nobody']) {
      const res = await compare(baseline.id, query, 404);
      assert.equal(res.error.code, 'baseline_not_found', query);
    }
    const own = await compare(head.id, 'baseline=tag:pr', 404);
    assert.match(own.error.message, /carrying tag pr/);
    const otherSet = await compare(otherRun.id, 'baseline=tag:main', 404);
    assert.equal(otherSet.error.code, 'baseline_not_found');
  });

  it('answers 422 naming baseline for a run of another set, an unknown run or a malformed value', async () => {
    const queries = [
      `baseline=${otherRun.id}`,
      'baseline=00000000-0000-4000-8000-000000000000',
      'baseline=latest',
      'baseline=tag:',
      `baseline=tag:${encodeURIComponent('two words')}`,
      `baseline=${'x'.repeat(201)}`,
      '',
    ];
    for (const query of queries) {
      const res = await compare(head.id, query, 422);
      assert.equal(res.error.code, 'validation_failed', query);
      assert.equal(res.error.details[0].field, 'baseline', query);
    }
    const foreign = await compare(head.id, `baseline=${otherRun.id}`, 422);
    assert.match(foreign.error.message, /not a run of this eval set/);
    await compare('00000000-0000-4000-8000-000000000000', 'baseline=last-completed', 404);
  });

  it("answers the paired tests, each case's verdict, the regression verdict and a regressed case's trajectory diff", async () => {
    const { data } = await compare(head.id, `baseline=${baseline.id}&fail_on_regression=significant`);
    // Both runs scored alpha, bravo, charlie, delta, echo: alpha and bravo got worse, charlie better.
    assert.equal(data.statistics.paired_cases, 5);
    assert.deepEqual(data.statistics.mcnemar, { worse: 2, better: 1, p_value: 1 });
    assert.equal(data.statistics.pass_rate_delta.delta, -1 / 5);
    assert.ok(data.statistics.pass_rate_delta.interval.low < -0.2 && data.statistics.pass_rate_delta.interval.high > 0);
    assert.deepEqual(data.regression, {
      mode: 'significant',
      alpha: 0.05,
      regressed: 2,
      significant: false,
      failed: false,
    });
    assert.deepEqual(data.verdicts, { regressed: 2, improved: 1, flaky: 0 });
    const byName = Object.fromEntries(data.cases.map((c: any) => [c.case_name, c]));
    assert.deepEqual(
      [byName.alpha.verdict, byName.charlie.verdict, byName.echo.verdict],
      ['regressed', 'improved', null],
    );
    // alpha's agent called guess instead of lookup.
    assert.deepEqual(byName.alpha.trajectory_diff, {
      rows: [
        { kind: 'missing', tool_name: 'lookup', baseline_index: 0, tool_args: { q: 'alpha' } },
        { kind: 'extra', tool_name: 'guess', run_index: 0, tool_args: { q: 'alpha' } },
      ],
      matched: 0,
      changed: 0,
      missing: 1,
      extra: 1,
    });
    assert.equal('trajectory_diff' in byName.charlie, false, 'only regressed cases get a diff');
    const any = await compare(head.id, `baseline=${baseline.id}`);
    assert.deepEqual([any.data.regression.mode, any.data.regression.failed], ['any', true]);
    assert.deepEqual(any.data.statistics, data.statistics, 'seeded by the two runs: the same answer every time');
  });

  it('answers efficiency deltas per case and the means of both runs, informational only', async () => {
    const { data } = await compare(head.id, `baseline=${baseline.id}`);
    const byName = Object.fromEntries(data.cases.map((c: any) => [c.case_name, c.efficiency_delta]));
    const same = { tool_calls: 0, model_calls: 0, total_tokens: null, latency_ms: null };
    assert.deepEqual(byName, {
      alpha: same,
      bravo: same,
      charlie: same,
      delta: { tool_calls: 1, model_calls: 0, total_tokens: 30, latency_ms: null },
      echo: same,
      golf: null,
      foxtrot: null,
    });
    // Over alpha, bravo, charlie, delta and echo; tokens only where both runs record them (delta).
    assert.deepEqual(data.efficiency, {
      cases: 5,
      tool_calls: { run: 6 / 5, baseline: 1, delta: 6 / 5 - 1 },
      model_calls: { run: 1, baseline: 1, delta: 0 },
      total_tokens: { run: 150, baseline: 120, delta: 30 },
      latency_ms: { run: null, baseline: null, delta: null },
    });
    const delta = data.cases.find((c: any) => c.case_name === 'delta');
    assert.deepEqual([delta.transition, delta.verdict], ['still_failing', null], 'more calls change no verdict');
  });

  it('answers 422 naming fail_on_regression or alpha when either is out of range', async () => {
    const queries: Array<[string, string]> = [
      ['fail_on_regression=some', 'fail_on_regression'],
      ['fail_on_regression=significant&alpha=0', 'alpha'],
      ['fail_on_regression=significant&alpha=1', 'alpha'],
      ['fail_on_regression=significant&alpha=x', 'alpha'],
    ];
    for (const [query, field] of queries) {
      const res = await compare(head.id, `baseline=${baseline.id}&${query}`, 422);
      assert.equal(res.error.code, 'validation_failed', query);
      assert.equal(res.error.details[0].field, field, query);
    }
  });

  it('refuses a tag list that breaks a bound, naming the field, and creates no run', async () => {
    const before = (await runsTagged('limit=500')).data.length;
    const bad: Array<[unknown, string]> = [
      [Array.from({ length: LIMITS.tagsPerRun + 1 }, (_, i) => `t${i}`), 'tags'],
      [['ok', ''], 'tags.1'],
      [['two words'], 'tags.0'],
      [['x'.repeat(101)], 'tags.0'],
      [['semi;colon'], 'tags.0'],
      ['main', 'tags'],
      [[7], 'tags.0'],
    ];
    for (const [tags, field] of bad) {
      const res = await api.send('post', '/api/ai-agents/support/eval-sets/checkout/run', 422, { tags });
      assert.equal(res.error.details[0].field, field, JSON.stringify(tags));
    }
    const over = await api.send('post', '/api/ai-agents/support/eval-sets/checkout/run', 422, { tags: bad[0][0] });
    assert.equal(over.error.details[0].limit, 'tagsPerRun');
    assert.equal((await runsTagged('limit=500')).data.length, before);
  });

  it('answers 409 run_not_ended while either run is queued or running', async () => {
    gate = judgeGate();
    const running = await api.trigger('support', 'checkout', { tags: ['main'] });
    try {
      const asRun = await compare(running.id, `baseline=${baseline.id}`, 409);
      assert.equal(asRun.error.code, 'run_not_ended');
      assert.equal(asRun.error.details.run_id, running.id);
      const asBaseline = await compare(head.id, `baseline=${running.id}`, 409);
      assert.equal(asBaseline.error.code, 'run_not_ended');
      assert.match(asBaseline.error.message, /baseline run is still (queued|running)/);
      // Keywords pick completed runs only: the running one is passed over.
      assert.equal((await compare(head.id, 'baseline=tag:main')).data.baseline_run_id, baseline.id);
    } finally {
      gate.release(Infinity);
    }
    const ended = await api.waitForEnd('support', running.id);
    assert.equal(ended.status, 'completed');
    assert.equal((await compare(head.id, 'baseline=tag:main')).data.baseline_run_id, running.id);
    assert.equal((await compare(running.id, 'baseline=last-completed')).data.baseline_run_id, head.id);
  });

  it('lists only the runs carrying ?tag=, newest first and paged', async () => {
    const main = await runsTagged('tag=main');
    assert.equal(main.data.length, 2);
    assert.ok(main.data.every((run: any) => run.tags.includes('main') && run.eval_set_id === baseline.eval_set_id));
    assert.equal(main.data[1].id, baseline.id);
    const first = await runsTagged('tag=main&limit=1');
    assert.deepEqual(
      first.data.map((run: any) => run.id),
      [main.data[0].id],
    );
    const second = await runsTagged(`tag=main&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`);
    assert.deepEqual(
      second.data.map((run: any) => run.id),
      [baseline.id],
    );
    assert.equal(second.next_cursor, null);
    assert.deepEqual(
      (await runsTagged('tag=pr')).data.map((run: any) => run.id),
      [head.id],
    );
    assert.deepEqual((await runsTagged('tag=nobody')).data, []);
    const all = await runsTagged('limit=500');
    assert.equal(all.data.length, 3);
    const bad = await api.send('get', '/api/ai-agents/support/eval-sets/checkout/runs?tag=two%20words', 422);
    assert.equal(bad.error.details[0].field, 'tag');
  });
});
