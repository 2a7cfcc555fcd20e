import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import request from 'supertest';
import { sql } from 'kysely';
import { LIMITS, type LimitName } from '../../domain/limits';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { rowCount, type CountedTable } from '../helpers/row-count';
import { createTenant, type Tenant } from '../helpers/tenants';

const AGENT = 'free-form-bot';

// A JSON object of exactly `bytes` bytes (as JSON, in UTF-8) under one key.
const sized = (bytes: number): Record<string, string> => ({ blob: 'x'.repeat(bytes - '{"blob":""}'.length) });
// A session_input whose fields beside `message` take exactly `bytes` bytes.
const sessionInput = (bytes: number, message = 'hi'): { message: string } & Record<string, unknown> => ({
  message,
  ...sized(bytes),
});

describe('every free-form field has a size bound', function () {
  this.timeout(300_000);
  let platform: TestPlatform;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  let setId: string;

  const count = (table: CountedTable): Promise<number> => rowCount(platform.runtime.db, table);

  /** Sends `body`, expects a 422 naming `field` and `limit` (key and value), and that `table` kept its rows. */
  const refused = async (
    method: 'post' | 'patch',
    path: string,
    body: unknown,
    field: string,
    limit: LimitName,
    table: CountedTable,
    type = 'application/json',
  ): Promise<void> => {
    const before = await count(table);
    const res = await request(platform.app)
      [method](path)
      .set(tenant.auth)
      .set('Content-Type', type)
      .send(typeof body === 'string' ? body : JSON.stringify(body));
    const what = `${method} ${path} → ${res.status} ${res.text.slice(0, 300)}`;
    assert.equal(res.status, 422, what);
    assert.ok(res.body.error.message.startsWith(`${field}: `), what);
    assert.ok(res.body.error.message.endsWith(`at most ${LIMITS[limit]} bytes (limit ${limit})`), what);
    const detail = res.body.error.details.find((d: { field: string }) => d.field === field);
    assert.deepEqual({ limit: detail?.limit, max: detail?.max }, { limit, max: LIMITS[limit] }, what);
    assert.equal(await count(table), before, `${what}: nothing written`);
  };

  before(async () => {
    platform = await createTestPlatform(await harness());
    tenant = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, tenant);
    await api.agent(AGENT, 'gpt-4o');
    setId = (await api.evalSet(AGENT, { name: 'largest' })).id;
  });
  // The full set is about 330 MB: gone before the next file, whose pg_dump and fingerprints read every table.
  after(async () => {
    if (setId) await sql`DELETE FROM eval_cases WHERE eval_set_id = ${setId}::uuid`.execute(platform.runtime.db);
    await platform?.close();
  });

  it('refuses a session_input whose other fields pass sessionInputBytes, wherever one is written', async () => {
    const over = sessionInput(LIMITS.sessionInputBytes + 1);
    const cases = `/api/ai-agents/${AGENT}/eval-sets/${setId}/cases`;
    await refused(
      'post',
      cases,
      { name: 'c', session_input: over },
      'session_input',
      'sessionInputBytes',
      'eval_cases',
    );
    const line = JSON.stringify({ name: 'c', session_input: over });
    const jsonl = Array.from({ length: 4 }, () => line).join('\n');
    const importPath = `${cases}/import`;
    await refused(
      'post',
      importPath,
      jsonl,
      'cases[0].session_input',
      'sessionInputBytes',
      'eval_cases',
      'application/x-ndjson',
    );
    const conversation = { session_input: over, final_response: 'ok' };
    const runs = `/api/ai-agents/${AGENT}/runs`;
    await refused('post', `${runs}/import`, conversation, 'session_input', 'sessionInputBytes', 'conversations');
    const run = { message: 'hi', session_input: sized(LIMITS.sessionInputBytes + 1) };
    await refused('post', runs, run, 'session_input', 'sessionInputBytes', 'conversations');
    // At the bound, and with a message of its own bound beside it, a session_input is taken.
    const largest = sessionInput(LIMITS.sessionInputBytes, 'm'.repeat(LIMITS.textChars));
    const taken = await api.addCase(AGENT, setId, { name: 'largest', session_input: largest });
    assert.deepEqual(taken.session_input, largest);
    await api.send('delete', `${cases}/${taken.id}`, 204);
  });

  it('refuses tool args, agent settings, flow variables and parameters, MCP config and event fields past their bounds', async () => {
    const call = (bytes: number) => ({ tool_name: 'lookup', tool_args: sized(bytes) });
    const over = LIMITS.toolArgsBytes + 1;
    const runs = `/api/ai-agents/${AGENT}/runs/import`;
    const answer = { session_input: { message: 'hi' }, final_response: 'ok' };
    await refused(
      'post',
      runs,
      { ...answer, tool_calls: [call(over)] },
      'tool_calls.0.tool_args',
      'toolArgsBytes',
      'conversations',
    );
    const cases = `/api/ai-agents/${AGENT}/eval-sets/${setId}/cases`;
    const expected = { name: 'c', session_input: { message: 'hi' }, expected_trajectory: [call(over)] };
    await refused('post', cases, expected, 'expected_trajectory.0.tool_args', 'toolArgsBytes', 'eval_cases');
    const events = [{ guardrail: 'pii', detail: sized(LIMITS.guardrailDetailBytes + 1) }];
    await refused(
      'post',
      runs,
      { ...answer, guardrail_events: events },
      'guardrail_events.0.detail',
      'guardrailDetailBytes',
      'conversations',
    );
    const usage = Object.fromEntries(Array.from({ length: LIMITS.tokenUsageBytes / 8 }, (_, i) => [`k${i}`, i]));
    await refused('post', runs, { ...answer, token_usage: usage }, 'token_usage', 'tokenUsageBytes', 'conversations');

    const settings = { max_steps: 3, ...sized(LIMITS.agentSettingsBytes + 1) };
    const agent = { name: 'other', model: 'gpt-4o', instructions: 'Help.', settings };
    await refused('post', '/api/ai-agents', agent, 'settings', 'agentSettingsBytes', 'agents');
    await refused('patch', `/api/ai-agents/${AGENT}`, { settings }, 'settings', 'agentSettingsBytes', 'agents');

    const node = { id: 'n1', kind: 'mcp.call_tool', mcp_server_id: 's', tool_name: 't', parameters: sized(over) };
    await refused(
      'post',
      '/api/v1/flows',
      { name: 'f', nodes: [node] },
      'nodes.0.parameters',
      'toolArgsBytes',
      'flows',
    );
    const variables = sized(LIMITS.flowVariablesBytes + 1);
    await refused('post', '/api/v1/flows/f/runs', { variables }, 'variables', 'flowVariablesBytes', 'flows');

    const header = 'X-' + 'h'.repeat(LIMITS.mcpConfigBytes);
    const server = {
      name: 'big',
      transport: 'http',
      config: { url: 'http://127.0.0.1:1/mcp', headers: { [header]: 'v' } },
    };
    await refused('post', '/api/v1/mcp-servers', server, 'config', 'mcpConfigBytes', 'mcp_servers');
  });

  it('documents each of these bounds in /openapi.json, by limit name and size', async () => {
    const doc = (await request(platform.app).get('/openapi.json').expect(200)).body;
    const bodyOf = (path: string, method = 'post'): any =>
      doc.paths[path][method].requestBody.content['application/json'].schema.properties;
    const imported = bodyOf('/api/ai-agents/{agent}/runs/import');
    const documented: Array<[any, LimitName]> = [
      [bodyOf('/api/ai-agents/{agent}/eval-sets/{set}/cases').session_input, 'sessionInputBytes'],
      [imported.session_input, 'sessionInputBytes'],
      [bodyOf('/api/ai-agents/{agent}/runs').session_input, 'sessionInputBytes'],
      [imported.tool_calls.items.properties.tool_args, 'toolArgsBytes'],
      [imported.guardrail_events.items.properties.detail, 'guardrailDetailBytes'],
      [imported.token_usage, 'tokenUsageBytes'],
      [bodyOf('/api/ai-agents').settings, 'agentSettingsBytes'],
      [bodyOf('/api/ai-agents/{agent}', 'patch').settings, 'agentSettingsBytes'],
      [bodyOf('/api/v1/flows/{id}/runs').variables, 'flowVariablesBytes'],
      [bodyOf('/api/v1/flows').nodes.items.properties.parameters, 'toolArgsBytes'],
      [bodyOf('/api/v1/mcp-servers').config, 'mcpConfigBytes'],
    ];
    for (const [schema, limit] of documented) {
      const found = [schema, ...(schema?.anyOf ?? []), ...(schema?.allOf ?? [])].find((s) => s?.['x-limit']);
      assert.deepEqual({ limit: found?.['x-limit'], max: found?.['x-max-bytes'] }, { limit, max: LIMITS[limit] });
      assert.match(found.description, new RegExp(`at most ${LIMITS[limit]} bytes \\(limit ${limit}\\)`));
    }
  });

  it('exports a full set whose every session_input is at its bound, and lists a full page of it', async () => {
    const largest = (i: number) => sessionInput(LIMITS.sessionInputBytes, `question ${i}`);
    // Made in Postgres: 10,000 rows of 32 KiB through the api or the repository would take most of a minute.
    const blob = sized(LIMITS.sessionInputBytes).blob;
    await sql`
      INSERT INTO eval_cases (eval_set_id, name, session_input)
      SELECT ${setId}::uuid, 'case ' || i, jsonb_build_object('message', 'question ' || i, 'blob', ${blob}::text)
      FROM generate_series(0, ${LIMITS.casesPerEvalSet - 1}) AS i`.execute(platform.runtime.db);
    const exported = await request(platform.app)
      .get(`/api/ai-agents/${AGENT}/eval-sets/${setId}/export`)
      .set(tenant.auth)
      .maxResponseSize(1024 * 1024 * 1024); // the whole set: about 330 MB
    assert.equal(exported.status, 200, exported.text.slice(0, 300));
    assert.equal(exported.body.cases.length, LIMITS.casesPerEvalSet);
    const cases: Array<{ name: string; session_input: unknown }> = exported.body.cases;
    const unequal = cases.filter((c) => !isDeepStrictEqual(c.session_input, largest(Number(c.name.slice(5)))));
    assert.deepEqual(
      unequal.map((c) => c.name),
      [],
      'every case exported whole',
    );

    // A page of the most cases a page holds, each at the bound.
    const page = await api.send('get', `/api/ai-agents/${AGENT}/eval-sets/${setId}/cases?limit=${LIMITS.pageMax}`, 200);
    assert.equal(page.data.length, LIMITS.pageMax);
    assert.ok(page.next_cursor);
    for (const item of page.data) assert.deepEqual(item.session_input, largest(Number(item.name.slice(5))));
  });
});
