import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { publishedAgent, toolMessages, userMessage } from '../helpers/agent-api';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { judgedSuite } from '../helpers/judged-suite';
import type { ScriptedReply, ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const FLAKY = 'is the flaky answer right?';
const STABLE = 'is the stable answer right?';

// The judge says YES to the flaky case on alternate samples (first, third, …) and always YES to the stable one.
const flakyAsks = { count: 0 };
const judge = judgeReplies({
  match: (ask) => (ask.user_input === FLAKY ? flakyAsks.count++ % 2 === 0 : true),
});

// The agent of the live test: "contact" calls the CRM tool for c1 on its odd-numbered runs and c2 on the even ones.
const agentRuns = { count: 0 };
function script(req: ScriptedRequest): ScriptedReply {
  const message = userMessage(req.messages);
  if (message !== 'contact') return judge(req);
  if (toolMessages(req.messages) > 0) return { content: 'updated' };
  const contact = agentRuns.count++ % 2 === 0 ? 'c1' : 'c2';
  return { toolCalls: [{ name: 'crm_update_contact', arguments: { contact_id: contact } }] };
}

describe('eval runs with repeats', () => {
  const suite = judgedSuite(script);

  // A fresh workspace (its own judge cache) with an agent and a set of two promoted cases, one judge sample each.
  async function offlineSet(agent: string): Promise<{ api: ReturnType<typeof evalApi>; ids: Record<string, string> }> {
    const api = evalApi(suite.platform.app, await createTenant(suite.platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-repeats-openai-key-4d2e', suite.llm.baseUrl);
    await api.agent(agent, 'gpt-4o');
    await api.evalSet(agent, { name: 'repeats', judge_samples: 1 });
    const ids: Record<string, string> = {};
    for (const [name, message] of [
      ['flaky', FLAKY],
      ['stable', STABLE],
    ]) {
      const run = await api.importRun(agent, { session_input: { message }, final_response: `${name} answer` });
      ids[name] = (await api.promote(agent, run.id, 'repeats', name)).id;
    }
    return { api, ids };
  }

  // Runs the set with `body`, the flaky case's judge starting on YES; answers the run, its results by name and the
  // judge calls each case made.
  async function repeatedRun(api: ReturnType<typeof evalApi>, agent: string, body: Record<string, unknown>) {
    flakyAsks.count = 0;
    const before = suite.llm.requests.length;
    const run = await api.waitForEnd(agent, (await api.trigger(agent, 'repeats', body)).id);
    assert.equal(run.status, 'completed', run.error);
    const results = Object.fromEntries((await api.results(agent, run.id)).map((r) => [r.case_name, r]));
    const asked = suite.llm.requests.slice(before).map((req) => judgeAsk(req).user_input);
    const calls = { flaky: asked.filter((m) => m === FLAKY).length, stable: asked.filter((m) => m === STABLE).length };
    return { run, results, calls };
  }

  it('reports a case the judge passes on alternate samples as flaky (flip rate 0.5) and fails it by default', async () => {
    const { api, ids } = await offlineSet('alternating');
    const { run, results, calls } = await repeatedRun(api, 'alternating', { repeats: 2 });
    assert.deepEqual([run.repeats, run.min_repeat_pass, run.judge_samples], [2, 2, 1]);
    assert.deepEqual(calls, { flaky: 2, stable: 2 });

    const flaky = results.flaky;
    assert.equal(flaky.status, 'failed');
    assert.equal(flaky.flip_rate, 0.5);
    assert.deepEqual(
      flaky.repeats.map((r: any) => [r.repeat, r.status, r.criteria.final_response_match.score]),
      [
        [0, 'passed', 1],
        [1, 'failed', 0],
      ],
    );
    // The aggregate criterion: the mean score over the repeats, passed in 1 of the 2 the case needed.
    assert.deepEqual(
      [flaky.criteria.final_response_match.score, flaky.criteria.final_response_match.passed],
      [0.5, false],
    );
    assert.equal(flaky.judge_usage.calls, 2);

    const stable = results.stable;
    assert.equal(stable.status, 'passed');
    assert.equal(stable.flip_rate, 0);
    assert.deepEqual(
      stable.repeats.map((r: any) => r.status),
      ['passed', 'passed'],
    );
    assert.deepEqual(run.summary.flaky, [{ case_id: ids.flaky, name: 'flaky', flip_rate: 0.5 }]);
    assert.equal(run.summary.flaky_count, 1);
    assert.deepEqual(run.summary.counts, { total: 2, passed: 1, failed: 1, error: 0 });
  });

  it('passes the flaky case with min_repeat_pass 2 of 4 and fails it with 3 of 4, flip rate 0.5 both times', async () => {
    const { api } = await offlineSet('lenient');
    const lenient = await repeatedRun(api, 'lenient', { repeats: 4, min_repeat_pass: 2 });
    assert.deepEqual(lenient.calls, { flaky: 4, stable: 4 });
    assert.deepEqual(
      lenient.results.flaky.repeats.map((r: any) => r.status),
      ['passed', 'failed', 'passed', 'failed'],
    );
    assert.deepEqual([lenient.results.flaky.status, lenient.results.flaky.flip_rate], ['passed', 0.5]);
    assert.deepEqual(lenient.run.summary.counts, { total: 2, passed: 2, failed: 0, error: 0 });
    assert.deepEqual(
      lenient.run.summary.flaky.map((c: any) => [c.name, c.flip_rate]),
      [['flaky', 0.5]],
    );
    // pass@k over 4 repeats: the flaky case passed 2 (pass@2 = 1 − C(2,2)/C(4,2) = 5/6, pass^2 = C(2,2)/C(4,2) = 1/6).
    const atTwo = lenient.results.flaky.pass_at_k[1];
    assert.deepEqual([atTwo.k, atTwo.pass_at_k.toFixed(4), atTwo.pass_hat_k.toFixed(4)], [2, '0.8333', '0.1667']);
    const runAtTwo = lenient.run.summary.pass_at_k[1];
    assert.deepEqual([runAtTwo.pass_at_k.toFixed(4), runAtTwo.pass_hat_k.toFixed(4)], ['0.9167', '0.5833']);
    assert.equal(lenient.run.summary.pass_at_k.length, 4);
    assert.deepEqual(lenient.run.summary.pass_rate_interval.high, 1);
    assert.ok(lenient.run.summary.avg_score_interval.final_response_match.low < 0.75);

    const strict = await repeatedRun(api, 'lenient', { repeats: 4, min_repeat_pass: 3 });
    assert.deepEqual([strict.results.flaky.status, strict.results.flaky.flip_rate], ['failed', 0.5]);
    assert.deepEqual(strict.run.summary.counts, { total: 2, passed: 1, failed: 1, error: 0 });
  });

  it('leaves repeats and flip rate null and lists no flaky cases for a run of one repeat', async () => {
    const { api } = await offlineSet('single');
    const { run, results, calls } = await repeatedRun(api, 'single', {});
    assert.deepEqual([run.repeats, run.min_repeat_pass], [1, 1]);
    assert.deepEqual(calls, { flaky: 1, stable: 1 });
    assert.deepEqual([results.flaky.repeats, results.flaky.flip_rate, results.flaky.status], [null, null, 'passed']);
    assert.equal(run.summary.flaky, undefined);
    assert.equal(run.summary.pass_at_k, undefined);
    assert.equal(results.flaky.pass_at_k, null);
  });

  it('refuses repeats outside 1–10 and a min_repeat_pass above repeats, naming the field', async () => {
    const { api } = await offlineSet('refused');
    const path = '/api/ai-agents/refused/eval-sets/repeats/run';
    for (const [body, field] of [
      [{ repeats: 11 }, 'repeats'],
      [{ repeats: 0 }, 'repeats'],
      [{ repeats: 2.5 }, 'repeats'],
      [{ repeats: 3, min_repeat_pass: 4 }, 'min_repeat_pass'],
      [{ min_repeat_pass: 2 }, 'min_repeat_pass'],
      [{ repeats: 3, min_repeat_pass: 0 }, 'min_repeat_pass'],
    ] as const) {
      const res = await api.send('post', path, 422, body);
      assert.equal(res.error.code, 'validation_failed');
      assert.ok(JSON.stringify(res.error.details).includes(field), `${JSON.stringify(body)}: ${JSON.stringify(res)}`);
    }
    const runs = (await api.send('get', '/api/ai-agents/refused/eval-sets/repeats/runs', 200)).data;
    assert.equal(runs.length, 0);
  });

  it('runs the agent once per repeat in live mode, each repeat in its own sandbox run and conversation', async () => {
    const api = evalApi(suite.platform.app, await createTenant(suite.platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-repeats-live-openai-key-9b1f', suite.llm.baseUrl);
    await publishedAgent(api, 'wavering', 'gpt-4o');
    await api.evalSet('wavering', { name: 'repeats' });
    const created = await api.addCase('wavering', 'repeats', {
      name: 'contact',
      session_input: { message: 'contact' },
      expected_trajectory: [{ tool_name: 'crm_update_contact', tool_args: { contact_id: 'c1' } }],
    });
    agentRuns.count = 0;
    const trigger = { mode: 'live', repeats: 4, min_repeat_pass: 2 };
    const run = await api.waitForEnd('wavering', (await api.trigger('wavering', 'repeats', trigger)).id, 120_000);
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('wavering', run.id);
    assert.deepEqual(
      result.repeats.map((r: any) => [r.repeat, r.status, r.criteria.tool_trajectory_avg_score.score]),
      [
        [0, 'passed', 1],
        [1, 'failed', 0],
        [2, 'passed', 1],
        [3, 'failed', 0],
      ],
    );
    assert.deepEqual([result.status, result.flip_rate], ['passed', 0.5]);
    const conversations = result.repeats.map((r: any) => r.conversation_id);
    assert.equal(new Set(conversations).size, 4);
    assert.equal(result.conversation_id, conversations[3]);
    for (const [repeat, id] of conversations.entries()) {
      const conversation = (await api.send('get', `/api/ai-agents/wavering/runs/${id}`, 200)).data;
      assert.equal(conversation.source, 'sandbox');
      assert.equal(conversation.tool_calls[0].tool_args.contact_id, repeat % 2 === 0 ? 'c1' : 'c2');
    }
    // Repeat 0 keeps the sandbox run's key of a run without repeats; each later repeat has its own.
    const { rows } = await sql<{ key: string }>`
      SELECT key FROM agent_runs WHERE eval_run_id = ${run.id} ORDER BY created_at`.execute(suite.platform.runtime.db);
    const base = `eval-run:${run.id}:case:${created.id}`;
    assert.deepEqual(
      rows.map((row) => row.key),
      [base, `${base}:repeat:1`, `${base}:repeat:2`, `${base}:repeat:3`],
    );
    assert.deepEqual(run.summary.flaky, [{ case_id: created.id, name: 'contact', flip_rate: 0.5 }]);
  });
});
