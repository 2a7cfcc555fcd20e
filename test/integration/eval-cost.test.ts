import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

// The scripted judge reports this usage per call, by what it was asked.
const USAGE = {
  final_response_match: { prompt_tokens: 1200, completion_tokens: 45, total_tokens: 1245 },
  rubric_based: { prompt_tokens: 2100, completion_tokens: 130, total_tokens: 2230 },
};
// The workspace's own price of the default judge of a gpt-4o agent (the built-in one is 0.40 / 1.60).
const JUDGE_PRICE = { input_per_mtok: 0.5, output_per_mtok: 2.25 };
const SAMPLES = 3;
const usdOf = (usage: { prompt_tokens: number; completion_tokens: number }): number =>
  (usage.prompt_tokens * JUDGE_PRICE.input_per_mtok + usage.completion_tokens * JUDGE_PRICE.output_per_mtok) / 1e6;

const judge = judgeReplies({});
const withUsage = (req: ScriptedRequest) => ({ ...judge(req), usage: USAGE[judgeAsk(req).task] });

describe('eval cost: prices, per-case and run cost, dry runs', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  const prices = '/api/workspaces/current/model-prices';
  const runPath = '/api/ai-agents/priced/eval-sets/costed/run';
  const tag = `cost-${Math.random().toString(36).slice(2)}`;
  const judgeCallsOfThisTest = () => llm.requests.filter((req) => judgeAsk(req).user_input?.startsWith(tag));

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(withUsage);
    tenant = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, tenant);
    await api.agent('priced', 'gpt-4o');
    await api.connect('openai', 'sk-workspace-openai-key-cost', llm.baseUrl);
    await api.evalSet('priced', { name: 'costed' });
    const caseUrl = (id: string) => `/api/ai-agents/priced/eval-sets/costed/cases/${id}`;
    const promoted = async (name: string, message: string, change: Record<string, unknown>) => {
      const conversation = await api.importRun('priced', {
        session_input: { message: `${tag} ${message}` },
        final_response: 'It ships tomorrow.',
      });
      const evalCase = await api.promote('priced', conversation.id, 'costed', name);
      if (Object.keys(change).length) await api.send('patch', caseUrl(evalCase.id), 200, change);
    };
    await promoted('match only', 'where is my order', {});
    const rubrics = ['confirms the cancellation', 'is polite'];
    await promoted('rubrics only', 'cancel it', { expected_final_response: null, rubrics });
    await promoted('trajectory only', 'look it up', { expected_final_response: null });
    // No conversation to score offline: it ends `error` without a judge call, and a dry run does not count it.
    await api.addCase('priced', 'costed', { name: 'unscorable', session_input: { message: `${tag} x` }, rubrics });
  });
  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it('sets, lists and removes a workspace price, and names the field of a bad one', async () => {
    const saved = (await api.send('put', `${prices}/GPT-4.1-mini`, 200, JUDGE_PRICE)).data;
    assert.deepEqual(
      { ...saved, updated_at: typeof saved.updated_at },
      {
        model: 'gpt-4.1-mini',
        ...JUDGE_PRICE,
        source: 'workspace',
        updated_at: 'string',
      },
    );
    const bad = await api.send('put', `${prices}/gpt-4o`, 422, { input_per_mtok: -1, output_per_mtok: 1 });
    assert.equal(bad.error.details[0].field, 'input_per_mtok');
    const unknown = await api.send('put', `${prices}/llama-local`, 422, JUDGE_PRICE);
    assert.equal(unknown.error.details[0].field, 'model');
    await api.send('put', `${prices}/openai%2Fgpt-4o-mini`, 200, { input_per_mtok: 1, output_per_mtok: 1 });
    await api.send('delete', `${prices}/openai%2Fgpt-4o-mini`, 204);
    await api.send('delete', `${prices}/openai%2Fgpt-4o-mini`, 404);

    const listed: any[] = [];
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const page: any = await api.send('get', `${prices}?limit=20${cursor ? `&cursor=${cursor}` : ''}`, 200);
      listed.push(...page.data);
      cursor = page.next_cursor;
    }
    assert.deepEqual(listed.find((item) => item.model === 'gpt-4.1-mini')?.source, 'workspace');
    assert.deepEqual(
      listed.find((item) => item.model === 'gpt-4o'),
      {
        model: 'gpt-4o',
        input_per_mtok: 2.5,
        output_per_mtok: 10,
        source: 'built_in',
        updated_at: null,
      },
    );
    assert.equal(listed.find((item) => item.model === 'openai/gpt-4o-mini')?.source, 'built_in');
    assert.deepEqual(
      listed.map((item) => item.model),
      [...listed.map((item) => item.model)].sort(),
    );
  });

  it('answers a dry run with the judge calls and an estimate, starting nothing; the real run makes those calls', async () => {
    const before = llm.requests.length;
    const dry = await api.send('post', runPath, 200, { dry_run: true, judge_samples: SAMPLES });
    assert.equal(dry.data.dry_run, true);
    assert.equal(dry.data.cases, 4);
    assert.equal(dry.data.judge_calls, 2 * SAMPLES);
    assert.equal(dry.data.judge_model, 'gpt-4.1-mini');
    assert.ok(dry.data.estimated_cost.judge_usd > 0);
    const rows = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM eval_runs WHERE workspace_id = ${tenant.workspaceId}`.execute(platform.runtime.db);
    assert.equal(Number(rows.rows[0].n), 0);
    assert.equal(llm.requests.length, before);

    const run = await api.waitForEnd('priced', (await api.trigger('priced', 'costed', { judge_samples: SAMPLES })).id);
    assert.equal(run.status, 'completed', run.error);
    assert.equal(judgeCallsOfThisTest().length, dry.data.judge_calls);
  });

  it("costs each result and the run at the workspace's judge price, from the judge's token usage", async () => {
    const runs = (await api.send('get', '/api/ai-agents/priced/eval-sets/costed/runs', 200)).data;
    const run = runs[0];
    const match = usdOf(USAGE.final_response_match) * SAMPLES;
    const rubrics = usdOf(USAGE.rubric_based) * SAMPLES;
    const byName = new Map((await api.results('priced', run.id)).map((result) => [result.case_name, result.cost]));
    for (const free of ['trajectory only', 'unscorable'])
      assert.deepEqual(byName.get(free), { judge_usd: 0, agent_usd: null, unpriced_models: [] }, free);
    assert.ok(Math.abs(byName.get('match only').judge_usd - match) < 1e-12);
    assert.ok(Math.abs(byName.get('rubrics only').judge_usd - rubrics) < 1e-12);
    const { cost } = run.summary;
    assert.ok(Math.abs(cost.judge_usd - (match + rubrics)) < 1e-12, JSON.stringify(cost));
    assert.equal(cost.agent_usd, null);
    assert.equal(cost.total_usd, cost.judge_usd);
    assert.deepEqual(cost.unpriced_models, []);
  });

  it('leaves the judge cost null and names the model when the judge has no price', async () => {
    await api.send('put', '/api/workspaces/current/eval-judge-model', 200, { judge_model: 'gpt-unpriced-judge' });
    const run = await api.waitForEnd('priced', (await api.trigger('priced', 'costed')).id);
    assert.equal(run.status, 'completed', run.error);
    assert.equal(run.judge.model, 'gpt-unpriced-judge');
    assert.deepEqual(run.summary.cost, {
      judge_usd: null,
      agent_usd: null,
      total_usd: null,
      unpriced_models: ['gpt-unpriced-judge'],
    });
    const dry = await api.send('post', runPath, 200, { dry_run: true });
    assert.equal(dry.data.estimated_cost.judge_usd, null);
    await api.send('put', '/api/workspaces/current/eval-judge-model', 200, { judge_model: '' });
  });
});
