import assert from 'node:assert/strict';
import { Client } from 'pg';
import { EVAL_PROGRESS_CHANNEL, parseEvalProgress, type EvalProgressEvent } from '../../db/eval-progress';
import { AgentIdKey, EvalRunStatusKey, EvalSetIdKey, WorkspaceIdKey } from '../../workflows/temporal-names';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

// Judge: equivalent when the texts are equal; any rubric mentioning "apolog" is rejected, every other one approved.
const judge = judgeReplies({
  match: (ask) => ask.expected_response === ask.actual_response,
  rubric: (rubric) => !/apolog/.test(rubric),
});

const ORDER = {
  session_input: { message: 'Where is my order 42?' },
  tool_calls: [{ tool_name: 'lookup_order', tool_args: { id: 42, verbose: false }, result: { status: 'shipped' } }],
  final_response: 'Your order ships tomorrow.',
};
const CANCEL = {
  session_input: { message: 'Cancel my plan' },
  tool_calls: [
    { tool_name: 'find_plan', tool_args: { user: 'u1' } },
    { tool_name: 'cancel_plan', tool_args: { plan: 'p1' } },
  ],
  final_response: 'Done, your plan is cancelled.',
  guardrail_events: [{ guardrail: 'pii_filter', stage: 'output', detail: 'masked an e-mail address' }],
};
const REFUND = {
  session_input: { message: 'Refund my last payment' },
  tool_calls: [
    { tool_name: 'refund', tool_args: { amount: 10 } },
    { tool_name: 'notify', tool_args: { channel: 'email' } },
  ],
  final_response: 'Refund issued.',
};
const HAND_WRITTEN = {
  name: 'refund by hand',
  session_input: { message: 'Refund my last payment' },
  expected_trajectory: [
    { tool_name: 'refund', tool_args: { amount: 10 } },
    { tool_name: 'lookup_order', tool_args: { id: 1 } },
  ],
  rubrics: ['mentions the refund', 'apologises for the trouble'],
};

describe('offline eval runs', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let api: ReturnType<typeof evalApi>;
  let listener: Client;
  let tenant: Tenant;
  const events: EvalProgressEvent[] = [];
  const ids: Record<string, string> = {};

  before(async () => {
    const h = await harness();
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(judge);
    listener = new Client({ connectionString: h.databaseUrl });
    await listener.connect();
    // A flush's one notification names several cases: expanded into one event per case, as the relay sees them.
    listener.on('notification', (message) =>
      events.push(...((parseEvalProgress(message.payload) ?? []) as EvalProgressEvent[])),
    );
    await listener.query(`LISTEN ${EVAL_PROGRESS_CHANNEL}`);

    tenant = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, tenant);
    await api.agent('support', 'gpt-4o');
    await api.connect('openai', 'sk-workspace-openai-key-0001', llm.baseUrl);
    const [order, cancel, refund] = [
      await api.importRun('support', ORDER),
      await api.importRun('support', CANCEL),
      await api.importRun('support', REFUND),
    ];
    Object.assign(ids, { order: order.id, cancel: cancel.id, refund: refund.id });
    const set = await api.evalSet('support', { name: 'smoke' });
    ids.set = set.id;
    ids.orderCase = (await api.promote('support', order.id, set.id, 'order status')).id;
    ids.cancelCase = (await api.promote('support', cancel.id, 'smoke')).id;
    ids.handCase = (await api.addCase('support', 'smoke', HAND_WRITTEN)).id;
  });

  after(async () => {
    await listener?.end();
    await llm?.close();
    await platform?.close();
  });

  it('scores promoted and hand-written cases from their source and summarises the stored results', async () => {
    const queued = await api.trigger('support', 'smoke');
    assert.equal(queued.status, 'queued');
    assert.equal(queued.mode, 'offline');
    assert.equal(queued.run_selection, 'source');
    const run = await api.waitForEnd('support', queued.id);
    assert.equal(run.status, 'completed', run.error);
    assert.deepEqual(run.judge, { provider: 'openai', model: 'gpt-4.1-mini', source: 'agent_provider_default' });
    const workflow = platform.runtime.temporal.client.workflow.getHandle(`eval-run:${run.id}`);
    assert.deepEqual(await workflow.result(), { status: 'completed' });
    const attributes = (await workflow.describe()).typedSearchAttributes;
    assert.deepEqual(
      [WorkspaceIdKey, AgentIdKey, EvalSetIdKey, EvalRunStatusKey].map((key) => attributes.get(key)),
      [tenant.workspaceId, run.agent_id, ids.set, 'completed'],
    );

    const results = await api.results('support', run.id);
    const byCase = Object.fromEntries(results.map((r) => [r.case_id, r]));
    assert.deepEqual(
      results.map((r) => r.case_name),
      ['order status', 'Cancel my plan', 'refund by hand'],
    );

    const order = byCase[ids.orderCase];
    assert.equal(order.status, 'passed');
    assert.equal(order.passed, true);
    assert.equal(order.conversation_id, ids.order);
    assert.deepEqual(order.criteria.tool_trajectory_avg_score.score, 1);
    assert.deepEqual(order.criteria.final_response_match, {
      score: 1,
      min_score: 0.8,
      passed: true,
      applicable: true,
      detail: { yes_votes: 1, samples: 1, justifications: ['same meaning'] },
    });
    assert.equal(order.criteria.rubric_based.applicable, false);
    assert.equal(order.criteria.safety.score, 1);
    assert.deepEqual(order.judge_usage, { calls: 1, prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });

    const cancel = byCase[ids.cancelCase];
    assert.equal(cancel.status, 'failed');
    assert.deepEqual(cancel.criteria.safety, {
      score: 0,
      min_score: null,
      passed: false,
      applicable: true,
      detail: { guardrails: ['pii_filter'], events: CANCEL.guardrail_events },
    });
    assert.equal(cancel.criteria.tool_trajectory_avg_score.passed, true);

    const hand = byCase[ids.handCase];
    assert.equal(hand.status, 'error');
    assert.match(hand.error, /no conversation to score/);
    assert.deepEqual(hand.criteria, {});

    // By hand: passed 1 of 3; trajectory (1, 1); final response (1, 1); safety (1, 0); rubrics never applied (null).
    // The 95% intervals (issue 26) are checked apart: Wilson for 1 of 3, a bootstrap interval around each mean.
    const { cost, pass_rate_interval, avg_score_interval, ...summary } = run.summary;
    assert.deepEqual([pass_rate_interval.low.toFixed(4), pass_rate_interval.high.toFixed(4)], ['0.0615', '0.7923']);
    assert.deepEqual(avg_score_interval.safety, { low: 0, high: 1 });
    assert.equal(avg_score_interval.rubric_based, null);
    assert.deepEqual(summary, {
      pass_rate: 1 / 3,
      avg_score: { tool_trajectory_avg_score: 1, final_response_match: 1, rubric_based: null, safety: 0.5 },
      counts: { total: 3, passed: 1, failed: 1, error: 1 },
      // The two judged samples (one per promoted case's expected response), none cached yet.
      judge_cache: { hits: 0, misses: 2 },
    });
    // Two judge calls of 10 prompt and 5 completion tokens (the scripted default) at gpt-4.1-mini's 0.40 / 1.60.
    assert.ok(Math.abs(cost.judge_usd - (2 * (10 * 0.4 + 5 * 1.6)) / 1e6) < 1e-15, JSON.stringify(cost));
    assert.deepEqual([cost.agent_usd, cost.unpriced_models], [null, []]);
    assert.equal(cost.total_usd, cost.judge_usd);
    assert.equal(run.total_cases, 3);
    assert.equal(run.scored_cases, 3);

    const progress = events.filter((e) => e.run_id === run.id && 'case_id' in e);
    assert.deepEqual(progress.map((e) => e.scored).sort(), [1, 2, 3]);
    assert.ok(progress.every((e) => e.total === 3));
    assert.deepEqual(Object.fromEntries(progress.map((e) => [e.case_id, e.status])), {
      [ids.orderCase]: 'passed',
      [ids.cancelCase]: 'failed',
      [ids.handCase]: 'error',
    });
  });

  it('scores the conversation given with explicit selection and reports missing, extra and rejected detail', async () => {
    const before = llm.requests.length;
    const queued = await api.trigger('support', ids.set, {
      run_selection: 'explicit',
      conversations: { [ids.handCase]: ids.refund },
    });
    const run = await api.waitForEnd('support', queued.id);
    const hand = (await api.results('support', run.id)).find((r) => r.case_id === ids.handCase);
    assert.equal(hand.conversation_id, ids.refund);
    assert.equal(hand.status, 'failed');
    assert.equal(hand.actual_final_response, 'Refund issued.');
    const trajectory = hand.criteria.tool_trajectory_avg_score;
    assert.equal(trajectory.score, 0.5);
    assert.deepEqual(trajectory.detail.missing, [
      { expected_index: 1, tool_name: 'lookup_order', tool_args: { id: 1 }, args_score: 0 },
    ]);
    assert.deepEqual(trajectory.detail.extra, [
      { actual_index: 1, tool_name: 'notify', tool_args: { channel: 'email' } },
    ]);
    const rubric = hand.criteria.rubric_based;
    assert.equal(rubric.score, 0.5);
    assert.equal(rubric.min_score, 0.7);
    assert.deepEqual(
      rubric.detail.approved.map((r: { rubric: string }) => r.rubric),
      ['mentions the refund'],
    );
    assert.deepEqual(
      rubric.detail.rejected.map((r: { justification: string }) => r.justification),
      ['misses: apologises for the trouble'],
    );
    const asked = llm.requests
      .slice(before)
      .map(judgeAsk)
      .filter((ask) => ask.task === 'rubric_based');
    assert.deepEqual(
      asked.map((ask) => ask.response),
      ['Refund issued.'],
    );
    assert.deepEqual(run.summary.counts, { total: 3, passed: 1, failed: 2, error: 0 });
  });

  it('applies the set defaults, then a per-run min_scores override on top of them', async () => {
    const explicit = { run_selection: 'explicit', conversations: { [ids.handCase]: ids.refund } };
    const handStatus = async (body: Record<string, unknown>): Promise<[string, unknown]> => {
      const run = await api.waitForEnd('support', (await api.trigger('support', 'smoke', body)).id);
      const hand = (await api.results('support', run.id)).find((r) => r.case_id === ids.handCase);
      return [hand.status, run.min_scores];
    };
    assert.deepEqual(
      await handStatus({ ...explicit, min_scores: { tool_trajectory_avg_score: 0.5, rubric_based: 0.5 } }),
      ['passed', { tool_trajectory_avg_score: 0.5, final_response_match: 0.8, rubric_based: 0.5 }],
    );
    await api.send('patch', '/api/ai-agents/support/eval-sets/smoke', 200, {
      min_scores: { tool_trajectory_avg_score: 0.5, rubric_based: 0.5 },
    });
    assert.equal((await handStatus(explicit))[0], 'passed');
    assert.deepEqual(await handStatus({ ...explicit, min_scores: { rubric_based: 0.6 } }), [
      'failed',
      { tool_trajectory_avg_score: 0.5, final_response_match: 0.8, rubric_based: 0.6 },
    ]);
    await api.send('patch', '/api/ai-agents/support/eval-sets/smoke', 200, {
      min_scores: { tool_trajectory_avg_score: 1, rubric_based: 0.7 },
    });
  });

  it('makes a case an error when the judge gives no usable verdict after its retries', async () => {
    await api.evalSet('support', { name: 'mumbling judge' });
    const promoted = await api.promote('support', ids.order, 'mumbling judge');
    llm.script((req) =>
      judgeAsk(req).user_input === ORDER.session_input.message ? { content: 'Well, it depends.' } : judge(req),
    );
    try {
      const before = llm.requests.length;
      // The same case was judged (and its verdict cached) in the first test: this one means to ask the judge.
      const run = await api.waitForEnd(
        'support',
        (await api.trigger('support', 'mumbling judge', { no_cache: true })).id,
      );
      const [result] = await api.results('support', run.id);
      assert.equal(result.case_id, promoted.id);
      assert.equal(result.status, 'error');
      assert.match(result.error, /final_response_match: the judge gave no usable verdict in 1 of 1 samples/);
      assert.equal(llm.requests.length - before, 3);
      assert.deepEqual(run.summary.counts, { total: 1, passed: 0, failed: 0, error: 1 });
    } finally {
      llm.script(judge);
    }
  });

  it('refuses live mode for an unpublished agent, and explicit selections naming a foreign case or run', async () => {
    const live = await api.send('post', '/api/ai-agents/support/eval-sets/smoke/run', 409, { mode: 'live' });
    assert.equal(live.error.code, 'agent_not_published');
    const foreign = await api.send('post', '/api/ai-agents/support/eval-sets/smoke/run', 422, {
      run_selection: 'explicit',
      conversations: { [ids.handCase]: ids.set },
    });
    assert.equal(foreign.error.details[0].field, `conversations.${ids.handCase}`);
    const notCase = await api.send('post', '/api/ai-agents/support/eval-sets/smoke/run', 422, {
      run_selection: 'explicit',
      conversations: { [ids.order]: ids.order },
    });
    assert.match(notCase.error.message, /is not a case of this eval set/);
    const sourceWithMap = await api.send('post', '/api/ai-agents/support/eval-sets/smoke/run', 422, {
      conversations: {},
    });
    assert.equal(sourceWithMap.error.details[0].field, 'conversations');
  });

  it("lists a set's runs newest first and 404s a run of another workspace", async () => {
    const runs = (await api.send('get', '/api/ai-agents/support/eval-sets/smoke/runs', 200)).data;
    assert.ok(runs.length >= 5);
    assert.ok(runs.every((r: { eval_set_id: string }) => r.eval_set_id === ids.set));
    assert.ok(runs[0].created_at >= runs[runs.length - 1].created_at);
    const stranger = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await stranger.agent('support', 'gpt-4o');
    await stranger.send('get', `/api/ai-agents/support/eval-runs/${runs[0].id}`, 404);
    await stranger.send('get', `/api/ai-agents/support/eval-runs/${runs[0].id}/results`, 404);
    await stranger.send('get', '/api/ai-agents/support/eval-runs/not-a-uuid', 404);
  });
});
