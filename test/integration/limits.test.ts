import assert from 'node:assert/strict';
import { sql } from 'kysely';
import request from 'supertest';
import { insertMcpServer } from '../../db/mcp-server.repository';
import { saveToolSync } from '../../db/mcp-tool.repository';
import { LIMITS, type LimitName } from '../../domain/limits';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';
import { lookupCalls } from '../helpers/agent-api';

const TABLES = ['agents', 'agent_versions', 'conversations', 'eval_sets', 'eval_cases', 'eval_runs', 'flows'] as const;
const calls = lookupCalls;
const messages = (n: number): Array<{ role: string; content: string }> =>
  Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
const events = (n: number): Array<{ guardrail: string; stage: string }> =>
  Array.from({ length: n }, () => ({ guardrail: 'pii', stage: 'input' }));
const guardrail = (patterns: string[]): Record<string, unknown> => ({ type: 'blocked_patterns', patterns });

describe('limits at the edge: one over is a 422 naming the field and the limit and writes nothing', () => {
  let platform: TestPlatform;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  let setId: string;
  let serverId: string;

  before(async () => {
    platform = await createTestPlatform(await harness());
    tenant = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, tenant);
    await api.agent('bounded', 'gpt-4o');
    setId = (await api.evalSet('bounded', { name: 'limits' })).id;
    const server = await insertMcpServer(platform.runtime.db, tenant.workspaceId, {
      catalogId: null,
      name: 'bounded-tools',
      transport: 'http',
      config: { url: 'http://127.0.0.1:9/mcp' },
      secretNames: [],
    });
    serverId = server.id;
    const schema = { type: 'object', properties: {} };
    const definition = { name: 'noop', description: 'does nothing', inputSchema: schema };
    const tool = { ...definition, parameters: [], definition, hash: 'h' };
    await saveToolSync(platform.runtime.db, serverId, [tool], new Date());
  });
  after(async () => platform?.close());

  const counts = async (): Promise<Record<string, number>> => {
    const out: Record<string, number> = {};
    for (const table of TABLES) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(
        platform.runtime.db,
      );
      out[table] = Number(rows[0].n);
    }
    return out;
  };

  /** Sends the request and checks the 422 names `field` and `limit` (key and value) and that no row changed. */
  async function refused(
    method: 'post' | 'patch',
    path: string,
    body: object,
    field: string,
    limit: LimitName,
  ): Promise<void> {
    const before = await counts();
    const res = await request(platform.app)[method](path).set(tenant.auth).send(body);
    assert.equal(res.status, 422, res.text.slice(0, 500));
    assert.equal(res.body.error.code, 'validation_failed');
    assert.ok(res.body.error.message.startsWith(`${field}: `), res.body.error.message);
    assert.ok(res.body.error.message.includes(`at most ${LIMITS[limit]} `), res.body.error.message);
    assert.ok(res.body.error.message.endsWith(`(limit ${limit})`), res.body.error.message);
    const detail = res.body.error.details.find((d: { field: string }) => d.field === field);
    assert.deepEqual({ limit: detail?.limit, max: detail?.max }, { limit, max: LIMITS[limit] });
    assert.deepEqual(await counts(), before);
  }

  async function accepted(method: 'post' | 'patch', path: string, body: object, status: number): Promise<void> {
    const res = await request(platform.app)[method](path).set(tenant.auth).send(body);
    assert.equal(res.status, status, res.text.slice(0, 500));
  }

  const importPath = '/api/ai-agents/bounded/runs/import';
  const importBody = (extra: object): Record<string, unknown> => ({
    session_input: { message: 'hi' },
    final_response: 'ok',
    ...extra,
  });

  it('bounds the tool calls of an imported conversation', async () => {
    const max = LIMITS.toolCallsPerConversation;
    await refused(
      'post',
      importPath,
      importBody({ tool_calls: calls(max + 1) }),
      'tool_calls',
      'toolCallsPerConversation',
    );
    await accepted('post', importPath, importBody({ tool_calls: calls(max) }), 201);
  });

  it('bounds the messages of an imported conversation', async () => {
    const max = LIMITS.messagesPerConversation;
    await refused(
      'post',
      importPath,
      importBody({ messages: messages(max + 1) }),
      'messages',
      'messagesPerConversation',
    );
    await accepted('post', importPath, importBody({ messages: messages(max) }), 201);
  });

  it('bounds the guardrail events of an imported conversation', async () => {
    const max = LIMITS.guardrailEventsPerConversation;
    const name = 'guardrailEventsPerConversation';
    await refused('post', importPath, importBody({ guardrail_events: events(max + 1) }), 'guardrail_events', name);
    await accepted('post', importPath, importBody({ guardrail_events: events(max) }), 201);
  });

  it('bounds each tool result of an imported conversation in JSON bytes', async () => {
    const result = (bytes: number): object => ({
      tool_calls: [{ tool_name: 't', tool_args: {}, result: 'r'.repeat(bytes - 2) }],
    });
    const max = LIMITS.toolResultBytes;
    await refused('post', importPath, importBody(result(max + 1)), 'tool_calls.0.result', 'toolResultBytes');
    await accepted('post', importPath, importBody(result(max)), 201);
  });

  it('bounds the final response of an imported conversation', async () => {
    const max = LIMITS.responseChars;
    await refused(
      'post',
      importPath,
      importBody({ final_response: 'a'.repeat(max + 1) }),
      'final_response',
      'responseChars',
    );
    await accepted('post', importPath, importBody({ final_response: 'a'.repeat(max) }), 201);
  });

  const casesPath = (): string => `/api/ai-agents/bounded/eval-sets/${setId}/cases`;
  const caseBody = (extra: object): object => ({ name: 'case', session_input: { message: 'hi' }, ...extra });

  it('bounds the expected trajectory, the rubrics and the expected response of a case', async () => {
    const trajectory = LIMITS.toolCallsPerExpectedTrajectory;
    const name = 'toolCallsPerExpectedTrajectory';
    await refused(
      'post',
      casesPath(),
      caseBody({ expected_trajectory: calls(trajectory + 1) }),
      'expected_trajectory',
      name,
    );
    await accepted('post', casesPath(), caseBody({ expected_trajectory: calls(trajectory) }), 201);
    const rubrics = (n: number): string[] => Array.from({ length: n }, (_, i) => `rubric ${i}`);
    await refused(
      'post',
      casesPath(),
      caseBody({ rubrics: rubrics(LIMITS.rubricsPerCase + 1) }),
      'rubrics',
      'rubricsPerCase',
    );
    await accepted('post', casesPath(), caseBody({ rubrics: rubrics(LIMITS.rubricsPerCase) }), 201);
    const text = (n: number): object => caseBody({ expected_final_response: 'a'.repeat(n) });
    await refused('post', casesPath(), text(LIMITS.textChars + 1), 'expected_final_response', 'textChars');
    await accepted('post', casesPath(), text(LIMITS.textChars), 201);
  });

  it("bounds an agent's instructions, guardrails, patterns and pattern length", async () => {
    const agents = '/api/ai-agents';
    const agent = (extra: object): object => ({ name: `a${Math.random()}`, model: 'gpt-4o', ...extra });
    const instructions = (n: number): object => agent({ instructions: 'a'.repeat(n) });
    await refused('post', agents, instructions(LIMITS.textChars + 1), 'instructions', 'textChars');
    await accepted('post', agents, instructions(LIMITS.textChars), 201);
    const rails = (n: number): object => ({
      settings: { guardrails: Array.from({ length: n }, () => guardrail(['x'])) },
    });
    await refused(
      'patch',
      `${agents}/bounded`,
      rails(LIMITS.guardrailsPerAgent + 1),
      'settings.guardrails',
      'guardrailsPerAgent',
    );
    await accepted('patch', `${agents}/bounded`, rails(LIMITS.guardrailsPerAgent), 200);
    const patterns = (n: number, chars = 1): object => ({
      settings: { guardrails: [guardrail(Array.from({ length: n }, () => 'p'.repeat(chars)))] },
    });
    const first = 'settings.guardrails.0.patterns';
    await refused('patch', `${agents}/bounded`, patterns(LIMITS.guardrailPatterns + 1), first, 'guardrailPatterns');
    await accepted('patch', `${agents}/bounded`, patterns(LIMITS.guardrailPatterns), 200);
    const chars = LIMITS.guardrailPatternChars;
    await refused('patch', `${agents}/bounded`, patterns(1, chars + 1), `${first}.0`, 'guardrailPatternChars');
    await accepted('patch', `${agents}/bounded`, patterns(1, chars), 200);
  });

  it('bounds the nodes of a flow', async () => {
    const node = (i: number): object => ({
      id: `n${i}`,
      kind: 'mcp.call_tool',
      mcp_server_id: serverId,
      tool_name: 'noop',
      parameters: {},
    });
    const flow = (n: number): object => ({ name: `flow-${n}`, nodes: Array.from({ length: n }, (_, i) => node(i)) });
    await refused('post', '/api/v1/flows', flow(LIMITS.flowNodes + 1), 'nodes', 'flowNodes');
    await accepted('post', '/api/v1/flows', flow(LIMITS.flowNodes), 201);
  });

  it('refuses to promote a stored conversation with more calls than a trajectory may hold', async () => {
    const legacy = await api.importRun('bounded', importBody({}));
    const over = calls(LIMITS.toolCallsPerExpectedTrajectory + 1);
    await platform.runtime.db
      .updateTable('conversations')
      .set({ tool_calls: JSON.stringify(over) })
      .where('id', '=', legacy.id)
      .execute();
    const path = `/api/ai-agents/bounded/runs/${legacy.id}/promote-to-case`;
    await refused('post', path, { eval_set_id: setId }, 'run', 'toolCallsPerExpectedTrajectory');
  });

  it('fills an eval set to its limit and refuses one more case, written or promoted', async () => {
    const db = platform.runtime.db;
    const { n } = await db
      .selectFrom('eval_cases')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('eval_set_id', '=', setId)
      .executeTakeFirstOrThrow();
    const missing = LIMITS.casesPerEvalSet - 1 - Number(n);
    await sql`insert into eval_cases (eval_set_id, name, session_input)
      select ${setId}, 'bulk ' || g, '{"message":"hi"}'::jsonb from generate_series(1, ${missing}) g`.execute(db);
    await accepted('post', casesPath(), caseBody({ name: 'the last place' }), 201);
    await refused('post', casesPath(), caseBody({ name: 'one too many' }), 'set', 'casesPerEvalSet');
    const conversation = await api.importRun('bounded', importBody({}));
    const promote = `/api/ai-agents/bounded/runs/${conversation.id}/promote-to-case`;
    await refused('post', promote, { eval_set_id: setId }, 'eval_set_id', 'casesPerEvalSet');
  });

  it('bounds the conversations chosen for an explicit run by the cases a set may hold', async () => {
    const chosen = (n: number): Record<string, string> =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`case-${i}`, `run-${i}`]));
    const path = `/api/ai-agents/bounded/eval-sets/${setId}/run`;
    const body = { run_selection: 'explicit', conversations: chosen(LIMITS.casesPerEvalSet + 1) };
    await refused('post', path, body, 'conversations', 'casesPerEvalSet');
  });

  it('documents the limits in /openapi.json as maxItems and maxLength', async () => {
    const doc = (await request(platform.app).get('/openapi.json').expect(200)).body;
    const bodyOf = (path: string, method: string): any =>
      doc.paths[path][method].requestBody.content['application/json'].schema;
    const imported = bodyOf('/api/ai-agents/{agent}/runs/import', 'post').properties;
    assert.equal(imported.tool_calls.maxItems, LIMITS.toolCallsPerConversation);
    assert.equal(imported.messages.maxItems, LIMITS.messagesPerConversation);
    assert.equal(imported.guardrail_events.maxItems, LIMITS.guardrailEventsPerConversation);
    assert.equal(imported.final_response.maxLength, LIMITS.responseChars);
    const kase = bodyOf('/api/ai-agents/{agent}/eval-sets/{set}/cases', 'post').properties;
    assert.equal(kase.rubrics.maxItems ?? kase.rubrics.anyOf?.[0]?.maxItems, LIMITS.rubricsPerCase);
    const trajectory = kase.expected_trajectory.maxItems ?? kase.expected_trajectory.anyOf?.[0]?.maxItems;
    assert.equal(trajectory, LIMITS.toolCallsPerExpectedTrajectory);
    assert.equal(bodyOf('/api/v1/flows', 'post').properties.nodes.maxItems, LIMITS.flowNodes);
  });
});
