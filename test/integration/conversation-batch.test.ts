import assert from 'node:assert/strict';
import request from 'supertest';
import { LIMITS } from '../../domain/limits';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

const BATCH = '/api/ai-agents/batch-bot/runs/import/batch';

// A conversation that calls `tool` on `id`, as CI would record it for a case.
const answer = (caseRef: string, tool: string, id: number): Record<string, unknown> => ({
  case: caseRef,
  session_input: { message: `case ${caseRef}` },
  tool_calls: [{ tool_name: tool, tool_args: { id } }],
  final_response: `called ${tool}`,
});

describe('POST /runs/import/batch: a set of conversations produced elsewhere', function () {
  this.timeout(120_000);
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  const cases: Record<string, string> = {};

  const conversationCount = async (): Promise<number> =>
    Number(
      (
        await platform.runtime.db
          .selectFrom('conversations')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const post = (body: unknown, query = 'eval_set=ci'): request.Test =>
    request(platform.app)
      .post(`${BATCH}?${query}`)
      .set(tenant.auth)
      .send(body as object);
  const postJsonl = (text: string, type = 'application/x-ndjson'): request.Test =>
    request(platform.app).post(`${BATCH}?eval_set=ci`).set(tenant.auth).set('Content-Type', type).send(text);

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(judgeReplies({}));
    tenant = await createTenant(platform.runtime.db, 'admin');
    api = evalApi(platform.app, tenant);
    await api.agent('batch-bot', 'gpt-4o');
    await api.connect('openai', 'sk-batch-test-key', llm.baseUrl);
    await api.evalSet('batch-bot', { name: 'ci' });
    for (const [name, tool, id] of [
      ['lookup', 'lookup_order', 1],
      ['refund', 'refund', 2],
      ['cancel', 'cancel_order', 3],
    ] as const) {
      const created = await api.addCase('batch-bot', 'ci', {
        name,
        session_input: { message: `case ${name}` },
        expected_trajectory: [{ tool_name: tool, tool_args: { id } }],
      });
      cases[name] = created.id;
    }
  });
  after(async () => {
    await platform?.close();
    await llm?.close();
  });

  it('imports a JSON array (cases by name or id) and a run with the returned map scores each case against it', async () => {
    const res = await post([
      answer('lookup', 'lookup_order', 1),
      answer(cases.refund, 'issue_credit', 2),
      answer('cancel', 'cancel_order', 3),
    ]).expect(201);
    const { eval_set_id, imported, conversations } = res.body.data;
    assert.equal(imported, 3);
    assert.deepEqual(Object.keys(conversations).sort(), Object.values(cases).sort());
    const set = await api.send('get', '/api/ai-agents/batch-bot/eval-sets/ci', 200);
    assert.equal(eval_set_id, set.data.id);
    const stored = await api.send('get', `/api/ai-agents/batch-bot/runs/${conversations[cases.refund]}`, 200);
    assert.equal(stored.data.source, 'imported');
    assert.equal(stored.data.tool_calls[0].tool_name, 'issue_credit');

    const queued = await api.trigger('batch-bot', 'ci', { run_selection: 'explicit', conversations });
    const run = await api.waitForEnd('batch-bot', queued.id);
    assert.equal(run.status, 'completed', run.error);
    const results = await api.results('batch-bot', run.id);
    const byCase = Object.fromEntries(results.map((r) => [r.case_id, r]));
    for (const id of Object.values(cases)) assert.equal(byCase[id].conversation_id, conversations[id]);
    assert.equal(byCase[cases.lookup].status, 'passed');
    assert.equal(byCase[cases.cancel].status, 'passed');
    assert.equal(byCase[cases.refund].status, 'failed', 'the refund conversation called the wrong tool');
  });

  it('imports JSONL (blank lines and CRLF allowed) under either media type', async () => {
    const lines = [answer('lookup', 'lookup_order', 1), answer('refund', 'refund', 2)].map((x) => JSON.stringify(x));
    for (const type of ['application/x-ndjson', 'application/jsonl']) {
      const res = await postJsonl(`${lines[0]}\r\n\n${lines[1]}\n`, type).expect(201);
      assert.equal(res.body.data.imported, 2, type);
      assert.deepEqual(Object.keys(res.body.data.conversations).sort(), [cases.lookup, cases.refund].sort());
    }
  });

  it('takes a body over BODY_LIMIT (1 MB) up to importBodyBytes, and refuses one above it with 413', async () => {
    const long = 'x'.repeat(600_000);
    const big = [answer('lookup', 'lookup_order', 1), answer('refund', 'refund', 2)].map((x) => ({
      ...x,
      final_response: long,
    }));
    const res = await post(big).expect(201);
    assert.equal(res.body.data.imported, 2);
    const before = await conversationCount();
    const over = await postJsonl('x'.repeat(LIMITS.importBodyBytes + 1)).expect(413);
    assert.equal(over.body.error.code, 'payload_too_large');
    assert.equal(await conversationCount(), before);
  });

  it('refuses a bad batch naming the item and field, and stores nothing', async () => {
    const before = await conversationCount();
    const invalid = await post([
      answer('lookup', 'lookup_order', 1),
      { case: 'refund', session_input: { message: 'x' } },
      { ...answer('cancel', 'cancel_order', 3), tool_calls: [{ tool_args: {} }] },
    ]).expect(422);
    const fields = invalid.body.error.details.map((d: { field: string }) => d.field);
    assert.ok(fields.includes('items[1].final_response'), fields.join());
    assert.ok(fields.includes('items[2].tool_calls.0.tool_name'), fields.join());
    assert.match(invalid.body.error.message, /^items\[1\]\.final_response: /);

    const unknown = await post([answer('lookup', 'lookup_order', 1), answer('no such case', 'x', 1)]).expect(422);
    assert.deepEqual(unknown.body.error.details, [
      { field: 'items[1].case', message: 'no such case is not a case of this eval set' },
    ]);

    const twice = await post([answer('refund', 'refund', 2), answer(cases.refund, 'refund', 2)]).expect(422);
    assert.equal(twice.body.error.details[0].field, 'items[1].case');
    assert.match(twice.body.error.details[0].message, /already has a conversation in items\[0\]/);

    const notArray = await post({ case: 'lookup' }).expect(422);
    assert.equal(notArray.body.error.details[0].field, 'items');

    const badLine = await postJsonl(`${JSON.stringify(answer('lookup', 'lookup_order', 1))}\n\n{not json\n`).expect(
      422,
    );
    assert.deepEqual(badLine.body.error.details, [{ field: 'items[1]', message: 'the line is not valid JSON' }]);
    const badJson = await request(platform.app)
      .post(`${BATCH}?eval_set=ci`)
      .set(tenant.auth)
      .set('Content-Type', 'application/json')
      .send('[{')
      .expect(400);
    assert.equal(badJson.body.error.code, 'malformed_json');
    const tooManyLines = await postJsonl('{}\n'.repeat(LIMITS.casesPerEvalSet + 1)).expect(413);
    assert.match(tooManyLines.body.error.message, /casesPerEvalSet/);

    const tooMany = await post(Array.from({ length: LIMITS.casesPerEvalSet + 1 }, () => ({}))).expect(413);
    assert.equal(tooMany.body.error.code, 'payload_too_large');
    assert.match(tooMany.body.error.message, /casesPerEvalSet/);

    await request(platform.app)
      .post(`${BATCH}?eval_set=ci`)
      .set(tenant.auth)
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(415);
    await post([answer('lookup', 'lookup_order', 1)], 'eval_set=nope').expect(404);
    await post([answer('lookup', 'lookup_order', 1)], '').expect(422);
    assert.equal(await conversationCount(), before, 'no conversation was stored by any refused batch');
  });

  it('needs evals:manage', async () => {
    const viewer = await createTenant(platform.runtime.db, 'viewer');
    await request(platform.app)
      .post(`${BATCH}?eval_set=ci`)
      .set(viewer.auth)
      .send([answer('lookup', 'lookup_order', 1)])
      .expect(403);
  });
});
