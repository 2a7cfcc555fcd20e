import assert from 'node:assert/strict';
import request from 'supertest';
import { LIMITS } from '../../domain/limits';
import { BUILT_IN_PRICES } from '../../domain/scoring/model-prices';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { keyOf, pageWalker } from '../helpers/page-walker';
import { makeTools, startPagedMcpServer, type PagedMcpServer } from '../helpers/paged-mcp-server';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { openRelay, serveWithRelay } from '../helpers/relay-client';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

const MANY = 5;
// One more than a snapshot holds, so the WebSocket snapshot cannot carry every result of the big run.
const BIG_RUN_CASES = LIMITS.pageDefault + 3;
const bearer = 'paging-peer-token-0123456789';

describe('paging of every list endpoint', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let peer: PagedMcpServer;
  let owner: Tenant;
  let api: ReturnType<typeof evalApi>;
  let agentId: string;
  let serverIds: string[];
  let bigRunId: string;
  let smallSetId: string;
  let bigSetId: string;

  const get = (path: string): Promise<request.Response> => request(platform.app).get(path).set(owner.auth);
  const walk = pageWalker(get);

  before(async () => {
    const h = await harness();
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1', WORKSPACE_CREATION: 'anyone' } });
    await platform.startWorker();
    llm = await startScriptedLlm(judgeReplies({}));
    peer = await startPagedMcpServer({ token: bearer, pageSize: 100, tools: makeTools(MANY + 2) });
    owner = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, owner);
    agentId = (await api.agent('support', 'gpt-4o')).id;
    for (let i = 0; i < MANY; i++) await api.agent(`agent-${i}`, 'gpt-4o');
    for (const provider of ['openai', 'anthropic', 'mistral', 'deepseek', 'xai'])
      await api.connect(provider, `sk-paging-${provider}-key-0001`, llm.baseUrl);

    bigSetId = (await api.evalSet('support', { name: 'big' })).id;
    for (let i = 0; i < BIG_RUN_CASES; i++) {
      const run = await api.importRun('support', { session_input: { message: `q${i}` }, final_response: `a${i}` });
      await api.promote('support', run.id, bigSetId, `case ${i}`);
    }
    smallSetId = (await api.evalSet('support', { name: 'small' })).id;
    for (let i = 0; i < MANY - 2; i++) await api.evalSet('support', { name: `extra-${i}` });
    await api.addCase('support', smallSetId, { name: 'hand-written', session_input: { message: 'hi' } });
    for (let i = 0; i < MANY; i++) await api.waitForEnd('support', (await api.trigger('support', smallSetId)).id);
    bigRunId = (await api.trigger('support', bigSetId)).id;
    await api.waitForEnd('support', bigRunId, 120_000);

    serverIds = [];
    for (let i = 0; i < MANY; i++) {
      const res = await request(platform.app)
        .post('/api/v1/mcp-servers')
        .set(owner.auth)
        .send({
          name: `peer-${i}`,
          transport: 'http',
          config: { url: peer.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
          secret_value: bearer,
        });
      assert.equal(res.status, 201, res.text);
      serverIds.push(res.body.id);
      const link = await request(platform.app)
        .post(`/api/v1/agents/${agentId}/mcp-servers`)
        .set(owner.auth)
        .send({ mcp_server_id: res.body.id });
      assert.equal(link.status, 200, link.text);
    }
    const synced = await request(platform.app)
      .post(`/api/v1/mcp-servers/${serverIds[0]}/refresh-tools`)
      .set(owner.auth);
    assert.equal(synced.status, 200, synced.text);
    for (let i = 0; i < MANY; i++) {
      const node = { id: 'n1', kind: 'mcp.call_tool', mcp_server_id: serverIds[0], tool_name: 't000' };
      const flow = await request(platform.app)
        .post('/api/v1/flows')
        .set(owner.auth)
        .send({ name: `flow-${i}`, nodes: [{ ...node, parameters: { text: 'hi' } }] });
      assert.equal(flow.status, 201, flow.text);
    }
    for (let i = 0; i < MANY; i++) {
      const entry = await request(platform.app)
        .post('/api/v1/mcp-catalog')
        .set(owner.auth)
        .send({
          name: i === 0 ? 'stripe' : `custom-${i}`, // a global entry's name too: the id keeps both apart
          label: 'Custom',
          image: 'https://example.com/custom.png',
          transport: 'http',
          config_schema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
        });
      assert.equal(entry.status, 201, entry.text);
    }
    // Tenancy lists: the owner's workspaces, personal tokens, the workspace's service tokens and members.
    const created = async (path: string, body: object): Promise<void> => {
      const res = await request(platform.app).post(path).set(owner.auth).send(body);
      assert.equal(res.status, 201, res.text);
    };
    for (let i = 0; i < MANY - 1; i++) {
      await created('/api/workspaces', { name: `team-${i}` });
      await created('/api/tokens', { name: `personal-${i}` });
      await created('/api/workspaces/current/members', { email: `member-${i}@example.com`, role: 'viewer' });
    }
    for (let i = 0; i < MANY; i++) await created('/api/workspaces/current/service-tokens', { name: `ci-${i}` });
    // Model prices: the built-in table merged with the workspace's own (one overrides a built-in price).
    for (const model of ['gpt-4o', ...Array.from({ length: MANY }, (_, i) => `gpt-paging-${i}`)]) {
      const price = { input_per_mtok: 1, output_per_mtok: 2 };
      const res = await request(platform.app)
        .put(`/api/workspaces/current/model-prices/${model}`)
        .set(owner.auth)
        .send(price);
      assert.equal(res.status, 200, res.text);
    }
  });

  after(async () => {
    await platform?.close();
    await llm?.close();
    await peer?.close();
  });

  it('walks every /api list to the end two items at a time, each item exactly once', async () => {
    const base = '/api/ai-agents/support';
    await walk.data('/api/ai-agents', MANY + 1);
    await walk.data(`${base}/runs`, BIG_RUN_CASES);
    await walk.data(`${base}/eval-sets`, MANY);
    await walk.data(`${base}/eval-sets/${bigSetId}/cases`, BIG_RUN_CASES);
    await walk.data(`${base}/eval-sets/${smallSetId}/runs`, MANY);
    const results = await walk.data(`${base}/eval-runs/${bigRunId}/results`, BIG_RUN_CASES);
    const cases = await walk.data(`${base}/eval-runs/${bigRunId}/cases`, BIG_RUN_CASES);
    assert.deepEqual(
      results.map((r: any) => r.case_id),
      cases.map(keyOf),
      'results come in case order',
    );
    await walk.data('/api/workspaces/current/integrations', MANY);
    await walk.data('/api/workspaces', MANY);
    await walk.data('/api/tokens', MANY);
    await walk.data('/api/workspaces/current/members', MANY);
    await walk.data('/api/workspaces/current/service-tokens', MANY);
    await walk.data('/api/workspaces/current/model-prices', Object.keys(BUILT_IN_PRICES).length + MANY);
    // Every write above left one entry in the audit trail (reads leave none).
    const audited = await platform.runtime.db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('workspace_id', '=', owner.workspaceId)
      .executeTakeFirstOrThrow();
    assert.ok(Number(audited.n) > BIG_RUN_CASES);
    await walk.data('/api/workspaces/current/audit', Number(audited.n));
  });

  it('walks every /api/v1 list by its Link header, the body staying the bare array', async () => {
    const catalog = await walk.linked('/api/v1/mcp-catalog', (await get('/api/v1/mcp-catalog?limit=500')).body.length);
    assert.equal(catalog.filter((e: any) => e.workspace_id !== null).length, MANY);
    await walk.linked('/api/v1/mcp-servers', MANY);
    await walk.linked(`/api/v1/mcp-servers/${serverIds[0]}/tools`, MANY + 2);
    await walk.linked(`/api/v1/agents/${agentId}/mcp-servers`, MANY);
    await walk.linked('/api/v1/flows', MANY);
  });

  it('keeps a walk exact while items before and after its position are removed and added', async () => {
    const set = await api.evalSet('support', { name: 'moving' });
    const add = async (name: string): Promise<string> =>
      (await api.addCase('support', set.id, { name, session_input: { message: name } })).id;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await add(`moving ${i}`));
    const path = `/api/ai-agents/support/eval-sets/${set.id}/cases`;
    const first = (await get(`${path}?limit=2`)).body;
    // An offset would now skip one case (a seen one is gone); a keyset continues right after the last one seen.
    await api.send('delete', `${path}/${ids[0]}`, 204);
    await api.send('delete', `${path}/${ids[3]}`, 204);
    const added = await add('moving 6');
    const seen: string[] = first.data.map(keyOf);
    for (let cursor = first.next_cursor; cursor !== null;) {
      const page = (await get(`${path}?limit=2&cursor=${encodeURIComponent(cursor)}`)).body;
      seen.push(...page.data.map(keyOf));
      cursor = page.next_cursor;
    }
    assert.deepEqual(seen, [ids[0], ids[1], ids[2], ids[4], ids[5], added]);
  });

  it('documents limit and cursor on exactly the list routes walked above', async () => {
    const doc = (await request(platform.app).get('/openapi.json')).body;
    // Lists that also take a filter, beside limit and cursor.
    const filters: Record<string, string[]> = {
      '/api/ai-agents/{agent}/eval-sets/{set}/runs': ['tag'],
      '/api/ai-agents/{agent}/runs': ['source'],
      '/api/workspaces/current/audit': ['action', 'actor_id', 'resource_id', 'resource_type', 'since', 'until'],
    };
    const lists: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      const schema = item.get?.responses?.['200']?.content?.['application/json']?.schema;
      if (schema?.type !== 'array' && schema?.properties?.data?.type !== 'array') continue;
      lists.push(path);
      const query = (item.get.parameters ?? []).filter((p: any) => p.in === 'query');
      assert.deepEqual(
        query.map((p: any) => p.name).sort(),
        ['cursor', 'limit', ...(filters[path] ?? [])].sort(),
        path,
      );
      const limit = query.find((p: any) => p.name === 'limit').schema;
      assert.equal(limit.maximum, LIMITS.pageMax, path);
      assert.equal(limit.default, LIMITS.pageDefault, path);
    }
    const matcher = (path: string): RegExp => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const path of lists)
      assert.ok(
        [...walk.walked].some((w) => matcher(path).test(w)),
        `${path} is walked`,
      );
    assert.equal(walk.walked.size, lists.length, 'every walked path is a documented list');
  });

  it('answers 422 naming limit or cursor for a bad value, on /api and /api/v1 alike', async () => {
    // A catalog cursor holds three keys (label, name, id): neither list below is ordered that way.
    const foreign = (await get('/api/v1/mcp-catalog?limit=1')).headers.link as string;
    const catalogCursor = decodeURIComponent(/cursor=([^&>]+)/.exec(foreign)?.[1] ?? '');
    const forged = Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000000Z', agentId])).toString('base64url');
    const bad: Array<[string, string]> = [
      ['limit=0', 'limit'],
      [`limit=${LIMITS.pageMax + 1}`, 'limit'],
      ['limit=two', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['cursor=', 'cursor'],
      ['cursor=%%%not-base64', 'cursor'],
      [`cursor=${'a'.repeat(LIMITS.pageCursorChars + 1)}`, 'cursor'],
      [`cursor=${encodeURIComponent(catalogCursor)}`, 'cursor'],
      [`cursor=${forged}`, 'cursor'],
    ];
    for (const path of ['/api/ai-agents/support/runs', '/api/v1/mcp-servers']) {
      for (const [query, field] of bad) {
        const res = await get(`${path}?${query}`);
        assert.equal(res.status, 422, `${path}?${query} → ${res.status} ${res.text}`);
        assert.equal(res.body.error.code, 'validation_failed');
        assert.equal(res.body.error.details[0].field, field, `${path}?${query}`);
      }
    }
  });

  it('bounds the WebSocket snapshot of a large run and continues it through the paged results', async () => {
    const served = await serveWithRelay(platform.app, {
      config: platform.config,
      db: platform.runtime.db,
      logger: platform.logger,
    });
    const client = await openRelay(served.wsUrl, { protocolToken: owner.token });
    try {
      client.subscribe(bigRunId);
      const snapshot = await client.waitFor((m) => m.type === 'snapshot');
      assert.equal(snapshot.run.scored_cases, BIG_RUN_CASES);
      assert.equal(snapshot.results.length, LIMITS.pageDefault);
      assert.equal(typeof snapshot.next_cursor, 'string');
      const rest = await get(
        `/api/ai-agents/support/eval-runs/${bigRunId}/results?cursor=${encodeURIComponent(snapshot.next_cursor)}`,
      );
      assert.equal(rest.body.next_cursor, null);
      const all = [...snapshot.results, ...rest.body.data].map((r: any) => r.case_id);
      const expected = (await get(`/api/ai-agents/support/eval-runs/${bigRunId}/results?limit=500`)).body.data;
      assert.deepEqual(
        all,
        expected.map((r: any) => r.case_id),
      );
    } finally {
      client.close();
      await served.close();
    }
  });
});
