import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { upsertMembership } from '../../db/member.repository';
import { LIMITS } from '../../domain/limits';
import { ADK_FIXTURE_CASES, ADK_FIXTURE_MULTI_TURN, adkFixture } from '../helpers/adk-fixture';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const AGENT = 'files-bot';
const setPath = (set: string): string => `/api/ai-agents/${AGENT}/eval-sets/${set}`;
const jsonl = (items: unknown[]): string => items.map((item) => JSON.stringify(item)).join('\n') + '\n';

describe('eval set files: export, import (Assay, ADK, JSONL) and the JSON Schema', function () {
  this.timeout(120_000);
  let platform: TestPlatform;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;

  const importCases = async (set: string, body: string, status: number, type = 'application/json') => {
    const res = await request(platform.app)
      .post(`${setPath(set)}/cases/import`)
      .set(tenant.auth)
      .set('Content-Type', type)
      .send(body);
    assert.equal(res.status, status, JSON.stringify(res.body));
    return res.body;
  };
  const exported = async (set: string) => (await api.send('get', `${setPath(set)}/export`, 200)) as any;
  const caseNames = async (set: string): Promise<string[]> =>
    (await api.send('get', `${setPath(set)}/cases?limit=500`, 200)).data.map((c: { name: string }) => c.name).sort();

  const countCases = async (set: string): Promise<number> => {
    const { data } = await api.send('get', setPath(set), 200);
    const { count } = await platform.runtime.db
      .selectFrom('eval_cases')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('eval_set_id', '=', data.id)
      .executeTakeFirstOrThrow();
    return Number(count);
  };

  before(async () => {
    platform = await createTestPlatform(await harness());
    tenant = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, tenant);
    await api.agent(AGENT, 'gpt-4o');
  });
  after(async () => platform?.close());

  it('round-trips: export, import into a new set, export again gives the same file; the file meets the schema', async () => {
    const settings = {
      description: 'orders and refunds',
      min_scores: { final_response_match: 0.6 },
      judge_samples: 3,
    };
    await api.evalSet(AGENT, { name: 'source', ...settings });
    await api.addCase(AGENT, 'source', {
      name: 'refund',
      session_input: { message: 'Refund order 7', locale: 'de-DE', customer: { tier: 'gold' } },
      expected_trajectory: [{ tool_name: 'refund', tool_args: { order: { id: 7, lines: [1, 2] } } }],
      expected_final_response: 'Refunded.',
      rubrics: ['Is polite', 'Names the order'],
    });
    await api.addCase(AGENT, 'source', { name: 'bare', session_input: { message: 'Hi' } });
    const conversation = await api.importRun(AGENT, {
      session_input: { message: 'Where is order 1?' },
      tool_calls: [{ tool_name: 'lookup', tool_args: { id: 1 }, result: { status: 'shipped' } }],
      final_response: 'It shipped.',
    });
    const sourceSet = await api.send('get', setPath('source'), 200);
    await api.promote(AGENT, conversation.id, sourceSet.data.id, 'promoted');

    const file = await exported('source');
    assert.equal(file.format, 'assay.eval-set/v1');
    assert.deepEqual(
      file.cases.map((c: { name: string }) => c.name),
      ['bare', 'promoted', 'refund'],
    );
    assert.deepEqual(file.min_scores, { tool_trajectory_avg_score: 1, final_response_match: 0.6, rubric_based: 0.7 });
    assert.deepEqual(Object.keys(file.cases[1]).sort(), [
      'expected_final_response',
      'expected_trajectory',
      'name',
      'rubrics',
      'session_input',
      'trajectory_match',
    ]);
    assert.deepEqual(file.cases[1].expected_trajectory, [{ tool_name: 'lookup', tool_args: { id: 1 } }]);

    const schema = (await request(platform.app).get('/schemas/eval-set.json').expect(200)).body;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    assert.equal(validate(file), true, JSON.stringify(validate.errors));
    assert.equal(validate({ ...file, cases: [{ name: 'x', session_input: {} }] }), false);

    await api.evalSet(AGENT, {
      name: 'copy',
      description: file.description,
      min_scores: file.min_scores,
      judge_samples: 3,
    });
    const imported = await importCases('copy', JSON.stringify(file), 200);
    assert.deepEqual(imported.data, { created: 3, updated: 0, unchanged: 0, format: 'assay' });
    assert.deepEqual(await exported('copy'), { ...file, name: 'copy' });
  });

  it('imports an ADK eval set with the mapping, its multi-turn case as turns; a bad invocation stores nothing', async () => {
    await api.evalSet(AGENT, { name: 'adk' });
    const bad = adkFixture();
    (bad.eval_cases[3] as { conversation: Array<Record<string, unknown>> }).conversation[1].user_content = {
      parts: [{ text: ' ' }],
    };
    const refused = await importCases('adk', JSON.stringify(bad), 422);
    assert.equal(refused.error.code, 'validation_failed');
    assert.deepEqual(
      refused.error.details.map((d: { field: string }) => d.field),
      ['eval_cases[3].conversation[1].user_content'],
    );
    assert.match(refused.error.details[0].message, /turns\[1\]\.user_message: must not be empty/);
    assert.deepEqual(await caseNames('adk'), [], 'nothing was stored');

    const imported = await importCases('adk', JSON.stringify(adkFixture()), 200);
    assert.deepEqual(imported.data, { created: 4, updated: 0, unchanged: 0, format: 'adk' });
    const cases = (await exported('adk')).cases;
    const { turns, session_input, name, rubrics } = ADK_FIXTURE_MULTI_TURN;
    const multi = { name, session_input, trajectory_match: 'lcs', turns, rubrics };
    const byName = [...ADK_FIXTURE_CASES, multi].sort((x, y) => x.name.localeCompare(y.name));
    assert.deepEqual(cases, byName);
  });

  it('imports JSONL, and a second import of the same file reports every case unchanged', async () => {
    await api.evalSet(AGENT, { name: 'generated' });
    const lines = jsonl([
      { name: 'g1', session_input: { message: 'one' }, expected_final_response: 'One.' },
      { name: 'g2', session_input: { message: 'two' }, expected_trajectory: [{ tool_name: 't', tool_args: { n: 2 } }] },
      { name: 'g3', session_input: { message: 'three' }, rubrics: ['Counts'] },
    ]);
    for (const type of ['application/x-ndjson', 'application/jsonl']) {
      const first = await importCases('generated', lines, 200, type);
      const expected = type === 'application/x-ndjson' ? { created: 3, unchanged: 0 } : { created: 0, unchanged: 3 };
      assert.deepEqual(first.data, { ...expected, updated: 0, format: 'jsonl' });
    }
    const changed = jsonl([
      { name: 'g1', session_input: { message: 'one' }, expected_final_response: 'Uno.' },
      { name: 'g4', session_input: { message: 'four' } },
    ]);
    assert.deepEqual((await importCases('generated', changed, 200, 'application/x-ndjson')).data, {
      created: 1,
      updated: 1,
      unchanged: 0,
      format: 'jsonl',
    });
    assert.deepEqual(await caseNames('generated'), ['g1', 'g2', 'g3', 'g4']);
    const file = await exported('generated');
    assert.equal(file.cases[0].expected_final_response, 'Uno.');
    assert.deepEqual((await importCases('generated', JSON.stringify(file), 200)).data, {
      created: 0,
      updated: 0,
      unchanged: 4,
      format: 'assay',
    });
  });

  it('keeps the conversation of a promoted case it updates', async () => {
    const set = await api.evalSet(AGENT, { name: 'promoted' });
    const run = await api.importRun(AGENT, { session_input: { message: 'Ping' }, final_response: 'Pong' });
    const promoted = await api.promote(AGENT, run.id, set.id, 'ping');
    const file = await exported('promoted');
    file.cases[0].rubrics = ['Answers pong'];
    assert.equal((await importCases('promoted', JSON.stringify(file), 200)).data.updated, 1);
    const after = (await api.send('get', `${setPath('promoted')}/cases/${promoted.id}`, 200)).data;
    assert.deepEqual([after.rubrics, after.source_run_id], [['Answers pong'], run.id]);
    assert.deepEqual(after.snapshot, promoted.snapshot);
  });

  it('refuses a file with invalid cases naming each by position and field, storing none of its cases', async () => {
    await api.evalSet(AGENT, { name: 'strict' });
    const lines = jsonl([
      { name: 'fine', session_input: { message: 'ok' } },
      { name: 'blank', session_input: { message: '  ' } },
      { name: 'fine', session_input: { message: 'twice' } },
      { name: 'calls', session_input: { message: 'x' }, expected_trajectory: [{ tool_name: '', tool_args: {} }] },
    ]);
    const refused = await importCases('strict', lines + '{not json\n', 422, 'application/x-ndjson');
    assert.deepEqual(refused.error.details, [{ field: 'cases[4]', message: 'the line is not valid JSON' }]);
    const invalid = await importCases('strict', lines, 422, 'application/x-ndjson');
    assert.deepEqual(
      invalid.error.details.map((d: { field: string }) => d.field),
      ['cases[1].session_input.message', 'cases[2].name', 'cases[3].expected_trajectory[0].tool_name'],
    );
    const file = {
      format: 'assay.eval-set/v1',
      name: 'strict',
      cases: [{ name: 'n', session_input: { message: 'm' }, extra: true }],
    };
    assert.deepEqual(
      (await importCases('strict', JSON.stringify(file), 422)).error.details.map((d: { field: string }) => d.field),
      ['cases[0]'],
    );
    assert.equal((await importCases('strict', '{"cases": [', 400)).error.code, 'malformed_json');
    assert.equal((await importCases('strict', 'hello', 415, 'text/plain')).error.code, 'unsupported_media_type');
    assert.deepEqual(await caseNames('strict'), []);
  });

  it('answers 413 above casesPerEvalSet cases in the file, and when the set would pass it', async () => {
    await api.evalSet(AGENT, { name: 'huge' });
    const many = Array.from({ length: LIMITS.casesPerEvalSet + 1 }, (_, i) => ({
      name: `c${i}`,
      session_input: { message: 'm' },
    }));
    const refused = await importCases('huge', jsonl(many), 413, 'application/x-ndjson');
    assert.equal(refused.error.code, 'payload_too_large');
    assert.equal(refused.error.details[0].limit, 'casesPerEvalSet');
    const file = { format: 'assay.eval-set/v1', name: 'huge', cases: many };
    assert.equal((await importCases('huge', JSON.stringify(file), 413)).error.code, 'payload_too_large');
    assert.deepEqual(await caseNames('huge'), []);

    const first = many.slice(0, LIMITS.casesPerEvalSet - 1);
    assert.equal((await importCases('huge', jsonl(first), 200, 'application/x-ndjson')).data.created, first.length);
    const overflow = jsonl(many.slice(LIMITS.casesPerEvalSet - 1));
    const full = await importCases('huge', overflow, 413, 'application/x-ndjson');
    assert.match(full.error.message, /holds 9999 cases and the file adds 2/);
    assert.equal(await countCases('huge'), LIMITS.casesPerEvalSet - 1, 'the overflowing import stored nothing');
  });

  it('reads an import body larger than BODY_LIMIT, up to importBodyBytes (413 above)', async () => {
    await api.evalSet(AGENT, { name: 'large' });
    const long = 'x'.repeat(LIMITS.textChars);
    const cases = Array.from({ length: 30 }, (_, i) => ({ name: `long ${i}`, session_input: { message: long } }));
    const body = JSON.stringify({ format: 'assay.eval-set/v1', name: 'large', cases });
    assert.ok(body.length > 2 * 1024 * 1024, 'the file is over the 1 MB BODY_LIMIT');
    assert.equal((await importCases('large', body, 200)).data.created, 30);
    const tooLarge = await importCases('large', ' '.repeat(LIMITS.importBodyBytes + 1), 413);
    assert.equal(tooLarge.error.code, 'payload_too_large');
  });

  it('needs evals:manage to import and evals:view to export; the schema needs no token', async () => {
    const member = await createTenant(platform.runtime.db, 'viewer');
    await upsertMembership(platform.runtime.db, tenant.workspaceId, member.userId, 'viewer');
    const viewer = { ...member.auth, 'X-Workspace-Id': tenant.workspaceId };
    await request(platform.app).get('/schemas/eval-set.json').expect(200);
    await request(platform.app)
      .get(`${setPath('source')}/export`)
      .expect(401);
    await request(platform.app)
      .get(`${setPath('source')}/export`)
      .set(viewer)
      .expect(200);
    const res = await request(platform.app)
      .post(`${setPath('source')}/cases/import`)
      .set(viewer)
      .send({ format: 'assay.eval-set/v1', name: 'x', cases: [] });
    assert.equal(res.status, 403);
    assert.deepEqual(res.body.error.details, { permission: 'evals:manage' });
  });
});
