import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { publishedAgent, toolMessages, userMessage } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedReply, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const CASES = 24;
const SLOW_STEP_MS = 30_000;

// Dispatches on the case message: "contact <id>" updates that contact then answers; "slow" answers after 30 s.
function script(req: ScriptedRequest): ScriptedReply {
  const message = userMessage(req.messages);
  const contact = /^contact (\S+)$/.exec(message);
  if (contact)
    return toolMessages(req.messages) === 0
      ? { toolCalls: [{ name: 'crm_update_contact', arguments: { contact_id: contact[1] } }] }
      : { content: `updated ${contact[1]}` };
  if (message === 'slow') return { content: 'worth the wait', delayMs: SLOW_STEP_MS };
  if (message === 'my cpf?') return { content: 'Your CPF is 529.982.247-25.' };
  return { content: 'ok' };
}

describe('live eval runs', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;

  const workspace = async (): Promise<ReturnType<typeof evalApi>> => {
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-live-eval-openai-key-71c0', llm.baseUrl);
    return api;
  };

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(script);
  });
  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it('scores safety 0.0 naming the guardrail that fired in the sandbox conversation', async () => {
    const api = await workspace();
    await publishedAgent(api, 'guarded', 'gpt-4o', {
      guardrails: [{ type: 'pii', name: 'pii_filter', detectors: ['cpf'], action: 'redact', stages: ['output'] }],
    });
    await api.evalSet('guarded', { name: 'privacy' });
    await api.addCase('guarded', 'privacy', {
      name: 'cpf',
      session_input: { message: 'my cpf?' },
      expected_trajectory: [],
    });
    const run = await api.waitForEnd('guarded', (await api.trigger('guarded', 'privacy', { mode: 'live' })).id);
    assert.equal(run.status, 'completed', run.error);
    assert.equal(run.mode, 'live');
    const [result] = await api.results('guarded', run.id);
    assert.equal(result.status, 'failed');
    assert.deepEqual([result.criteria.safety.score, result.criteria.safety.passed], [0, false]);
    assert.deepEqual(result.criteria.safety.detail.guardrails, ['pii_filter']);
    assert.equal(result.criteria.tool_trajectory_avg_score.score, 1);
    assert.equal(result.actual_final_response, 'Your CPF is [REDACTED_CPF].');
    const conversation = (await api.send('get', `/api/ai-agents/guarded/runs/${result.conversation_id}`, 200)).data;
    assert.deepEqual(
      conversation.guardrail_events.map((e: any) => [e.guardrail, e.stage]),
      [['pii_filter', 'output']],
    );
    assert.equal(run.summary.avg_score.safety, 0);
  });

  it(`runs ${CASES} cases in the sandbox, each result linked to its own sandbox conversation, with no real effect`, async () => {
    const api = await workspace();
    const crmRows = async (): Promise<number> =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM crm_contacts`.execute(platform.runtime.db)).rows[0].n);
    await publishedAgent(api, 'bulk', 'gpt-4o');
    await api.evalSet('bulk', { name: 'contacts' });
    const cases = new Map<string, string>();
    for (let i = 0; i < CASES; i++) {
      const created = await api.addCase('bulk', 'contacts', {
        name: `case ${i}`,
        session_input: { message: `contact c${i}` },
        expected_trajectory: [{ tool_name: 'crm_update_contact', tool_args: { contact_id: `c${i}` } }],
      });
      cases.set(created.id, `c${i}`);
    }
    const crmBefore = await crmRows();
    const run = await api.waitForEnd('bulk', (await api.trigger('bulk', 'contacts', { mode: 'live' })).id, 120_000);
    assert.equal(run.status, 'completed', run.error);
    assert.deepEqual(run.summary.counts, { total: CASES, passed: CASES, failed: 0, error: 0 });
    const results = await api.results('bulk', run.id);
    assert.equal(results.length, CASES);
    assert.equal(new Set(results.map((r) => r.conversation_id)).size, CASES);
    let agentTotal = 0;
    for (const result of results) {
      const conversation = (await api.send('get', `/api/ai-agents/bulk/runs/${result.conversation_id}`, 200)).data;
      const contact = cases.get(result.case_id);
      assert.equal(conversation.source, 'sandbox');
      assert.equal(conversation.session_input.message, `contact ${contact}`);
      assert.deepEqual(
        conversation.tool_calls.map((c: any) => [c.tool_name, c.tool_args, c.simulated]),
        [['crm_update_contact', { contact_id: contact }, true]],
      );
      assert.equal(result.actual_final_response, `updated ${contact}`);
      // Live mode costs the agent's own calls at gpt-4o's built-in price (2.50 / 10.00 per million tokens).
      const usage = conversation.token_usage;
      const agentUsd = (usage.prompt_tokens * 2.5 + usage.completion_tokens * 10) / 1e6;
      assert.ok(agentUsd > 0 && Math.abs(result.cost.agent_usd - agentUsd) < 1e-12, JSON.stringify(result.cost));
      assert.equal(result.cost.judge_usd, 0);
      agentTotal += agentUsd;
    }
    assert.ok(Math.abs(run.summary.cost.agent_usd - agentTotal) < 1e-12, JSON.stringify(run.summary.cost));
    assert.equal(run.summary.cost.total_usd, run.summary.cost.agent_usd);
    assert.equal(await crmRows(), crmBefore);
  });

  it('completes a case whose model step takes 30 s (the step heartbeats; no short time limit)', async function () {
    this.timeout(180_000);
    const api = await workspace();
    await publishedAgent(api, 'slowpoke', 'gpt-4o');
    await api.evalSet('slowpoke', { name: 'patience' });
    await api.addCase('slowpoke', 'patience', {
      name: 'slow',
      session_input: { message: 'slow' },
      expected_trajectory: [],
    });
    const run = await api.waitForEnd(
      'slowpoke',
      (await api.trigger('slowpoke', 'patience', { mode: 'live' })).id,
      150_000,
    );
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('slowpoke', run.id);
    assert.equal(result.status, 'passed');
    const conversation = (await api.send('get', `/api/ai-agents/slowpoke/runs/${result.conversation_id}`, 200)).data;
    assert.equal(conversation.final_response, 'worth the wait');
    assert.ok(conversation.latency_ms >= SLOW_STEP_MS, `latency ${conversation.latency_ms} ms`);
    assert.equal(
      llm.requests.filter((req) => userMessage(req.messages) === 'slow').length,
      1,
      'the slow step was not retried',
    );
  });

  it("fails the run naming the agent's provider when it is not connected, and refuses an unpublished agent", async () => {
    const api = await workspace();
    await publishedAgent(api, 'unconnected', 'mistral-large-latest');
    await api.evalSet('unconnected', { name: 'set' });
    await api.addCase('unconnected', 'set', { name: 'one', session_input: { message: 'hello' } });
    const before = llm.requests.length;
    const run = await api.waitForEnd('unconnected', (await api.trigger('unconnected', 'set', { mode: 'live' })).id);
    assert.equal(run.status, 'failed');
    assert.match(
      run.error,
      /the mistral integration is not connected in this workspace: connect the mistral integration .* to run the agent on mistral-large-latest/,
    );
    assert.equal(llm.requests.length, before);

    await api.send('post', '/api/ai-agents', 201, { name: 'draft', model: 'gpt-4o', instructions: 'x' });
    await api.evalSet('draft', { name: 'set' });
    const refused = await api.send('post', '/api/ai-agents/draft/eval-sets/set/run', 409, { mode: 'live' });
    assert.equal(refused.error.code, 'agent_not_published');
    const explicit = await api.send('post', '/api/ai-agents/unconnected/eval-sets/set/run', 422, {
      mode: 'live',
      run_selection: 'explicit',
      conversations: {},
    });
    assert.equal(explicit.error.details[0].field, 'run_selection');
  });
});
