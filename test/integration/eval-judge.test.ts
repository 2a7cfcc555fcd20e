import assert from 'node:assert/strict';
import { sql } from 'kysely';
import request from 'supertest';
import { lookUpPrice } from '../../domain/scoring/model-prices';
import { defaultJudgeModel, type Provider } from '../../domain/agent/model-provider';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const judge = judgeReplies({});

// One agent model per provider family; a slash id goes to the aggregator.
const AGENT_MODELS: Record<Provider, string> = {
  openai: 'gpt-4o',
  anthropic: 'claude-sonnet-4-5',
  google: 'gemini-2.5-pro',
  mistral: 'mistral-large-latest',
  deepseek: 'deepseek-reasoner',
  xai: 'grok-4',
  openrouter: 'meta-llama/llama-3.3-70b-instruct',
};

const keyOf = (provider: string): string => `sk-${provider}-workspace-key-7f3a9c`;

describe('judge resolution and provider integrations', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;

  // An agent on `model` with one promoted case whose message is unique, so the judge's requests can be told apart.
  async function runOnce(
    api: ReturnType<typeof evalApi>,
    agentName: string,
    model: string,
  ): Promise<{ run: any; asked: ScriptedRequest[] }> {
    await api.agent(agentName, model);
    const message = `question for ${agentName} ${Math.random()}`;
    const conversation = await api.importRun(agentName, { session_input: { message }, final_response: 'An answer.' });
    await api.evalSet(agentName, { name: 'judge check' });
    await api.promote(agentName, conversation.id, 'judge check');
    const run = await api.waitForEnd(agentName, (await api.trigger(agentName, 'judge check')).id);
    return { run, asked: llm.requests.filter((req) => judgeAsk(req).user_input === message) };
  }

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(judge);
  });
  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it("judges with the provider's cheaper default model and the workspace's own key, for every provider family", async () => {
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    for (const provider of Object.keys(AGENT_MODELS) as Provider[])
      await api.connect(provider, keyOf(provider), llm.baseUrl);
    for (const [provider, model] of Object.entries(AGENT_MODELS) as Array<[Provider, string]>) {
      const { run, asked } = await runOnce(api, `agent-${provider}`, model);
      assert.equal(run.status, 'completed', `${provider}: ${run.error}`);
      // The provider's default, unless it costs more than the agent's model (the aggregator's Llama agent).
      const judgeModel = defaultJudgeModel(provider, model, (id) => lookUpPrice(id));
      assert.deepEqual(run.judge, { provider, model: judgeModel, source: 'agent_provider_default' });
      assert.equal(asked.length, 1, provider);
      assert.equal(asked[0].model, judgeModel);
      assert.equal(asked[0].authorization, `Bearer ${keyOf(provider)}`);
      assert.equal(asked[0].body.temperature, 0);
      // Anthropic's OpenAI-compatible endpoint has no JSON mode; the reply is parsed tolerantly instead.
      assert.deepEqual(asked[0].body.response_format, provider === 'anthropic' ? undefined : { type: 'json_object' });
    }
  });

  it('uses the workspace judge model, with its own provider and key, for every agent', async () => {
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    await api.connect('openai', keyOf('openai'), llm.baseUrl);
    await api.connect('anthropic', keyOf('anthropic'), llm.baseUrl);
    const put = await api.send('put', '/api/workspaces/current/eval-judge-model', 200, {
      judge_model: 'claude-3-7-sonnet-latest',
    });
    assert.deepEqual(put, { data: { judge_model: 'claude-3-7-sonnet-latest' } });
    const { run, asked } = await runOnce(api, 'fixed-judge', 'gpt-4o');
    assert.deepEqual(run.judge, { provider: 'anthropic', model: 'claude-3-7-sonnet-latest', source: 'workspace' });
    assert.deepEqual(
      asked.map((req) => [req.model, req.authorization]),
      [['claude-3-7-sonnet-latest', `Bearer ${keyOf('anthropic')}`]],
    );

    await api.send('put', '/api/workspaces/current/eval-judge-model', 200, { judge_model: 'openai/gpt-4.1' });
    await api.connect('openrouter', keyOf('openrouter'), llm.baseUrl);
    const aggregated = await runOnce(api, 'aggregated-judge', 'gpt-4o');
    assert.deepEqual(
      aggregated.asked.map((req) => [req.model, req.authorization]),
      [['openai/gpt-4.1', `Bearer ${keyOf('openrouter')}`]],
    );
    assertLogsClean(platform.logs, [keyOf('openai'), keyOf('anthropic'), keyOf('openrouter')]);
  });

  it('fails the run naming the provider to connect when its integration is missing', async () => {
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    const before = llm.requests.length;
    const { run } = await runOnce(api, 'unconnected', 'mistral-large-latest');
    assert.equal(run.status, 'failed');
    assert.match(
      run.error,
      /the mistral integration is not connected in this workspace: connect the mistral integration/,
    );
    assert.equal(run.summary, null);
    assert.equal(llm.requests.length, before);

    await api.connect('mistral', keyOf('mistral'), llm.baseUrl);
    await api.send('put', '/api/workspaces/current/eval-judge-model', 200, { judge_model: 'gemini-2.0-flash' });
    const judged = await runOnce(api, 'judge-unconnected', 'mistral-large-latest');
    assert.equal(judged.run.status, 'failed');
    assert.match(judged.run.error, /connect the google integration/);
  });

  it('waits as the provider asks with retry-after, then scores the case', async () => {
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', keyOf('openai'), llm.baseUrl);
    let throttled = false;
    llm.script((req) => {
      if (judgeAsk(req).user_input.startsWith('question for throttled') && !throttled) {
        throttled = true;
        return { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } };
      }
      return judge(req);
    });
    try {
      const { run, asked } = await runOnce(api, 'throttled', 'gpt-4o');
      assert.equal(run.status, 'completed');
      assert.equal(run.summary.counts.passed, 1);
      assert.equal(asked.length, 2);
      assert.ok(
        asked[1].receivedAt - asked[0].receivedAt >= 950,
        `retried after ${asked[1].receivedAt - asked[0].receivedAt} ms`,
      );
    } finally {
      llm.script(judge);
    }
  });

  it('fails the run when the provider rejects the workspace key, without repeating the call per case', async () => {
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-revoked-key-0000000000', llm.baseUrl);
    llm.script((req) =>
      req.authorization === 'Bearer sk-revoked-key-0000000000'
        ? { status: 401, body: { error: { message: 'Incorrect API key provided: sk-rev***000' } } }
        : judge(req),
    );
    try {
      const { run, asked } = await runOnce(api, 'revoked', 'gpt-4o');
      assert.equal(run.status, 'failed');
      assert.match(run.error, /HTTP 401: check the openai integration's API key/);
      assert.doesNotMatch(run.error, /sk-rev/);
      assert.equal(asked.length, 1);
    } finally {
      llm.script(judge);
    }
  });

  it('reads and writes the workspace judge model by X-Workspace-Id, refusing a model with no provider', async () => {
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    const path = '/api/workspaces/current/eval-judge-model';
    const headers = { ...tenant.auth, 'X-Workspace-Id': tenant.workspaceId };
    assert.deepEqual((await request(platform.app).get(path).set(headers).expect(200)).body, {
      data: { judge_model: '' },
    });
    await request(platform.app).put(path).set(headers).send({ judge_model: 'gpt-4.1' }).expect(200);
    assert.deepEqual((await request(platform.app).get(path).set(headers).expect(200)).body, {
      data: { judge_model: 'gpt-4.1' },
    });
    const bad = await api.send('put', path, 422, { judge_model: 'my-own-model' });
    assert.equal(bad.error.details[0].field, 'judge_model');
    await api.send('put', path, 200, { judge_model: '' });
    assert.deepEqual(await api.send('get', path, 200), { data: { judge_model: '' } });
  });

  it('keeps integration keys in the credential vault, shows them masked and deletes them', async () => {
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    const key = 'sk-live-very-secret-key-abcd1234';
    const saved = await api.connect('openai', key, 'http://127.0.0.1:9/v1');
    assert.deepEqual(
      { ...saved, created_at: undefined, updated_at: undefined },
      {
        provider: 'openai',
        connected: true,
        base_url: 'http://127.0.0.1:9/v1',
        key_hint: '…1234',
        credential_id: 'integration:openai',
        created_at: undefined,
        updated_at: undefined,
      },
    );
    const listed = await api.send('get', '/api/workspaces/current/integrations', 200);
    assert.doesNotMatch(JSON.stringify(listed), /very-secret/);
    const vaultRef = { workspaceId: tenant.workspaceId, credentialId: 'integration:openai' };
    assert.equal(await platform.runtime.vault.get(vaultRef), key);
    const rows = await sql<{
      row: string;
    }>`SELECT row_to_json(i)::text AS row FROM integrations i WHERE workspace_id = ${tenant.workspaceId}`.execute(
      platform.runtime.db,
    );
    assert.equal(rows.rows.length, 1);
    assert.doesNotMatch(rows.rows[0].row, /very-secret/);
    await api.send('put', '/api/workspaces/current/integrations/acme', 422, { api_key: key });
    await api.send('delete', '/api/workspaces/current/integrations/openai', 204);
    await api.send('get', '/api/workspaces/current/integrations/openai', 404);
    assert.equal(await platform.runtime.vault.get(vaultRef), null);
    assertLogsClean(platform.logs, [key]);
  });
});
