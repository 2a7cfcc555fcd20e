import assert from 'node:assert/strict';
import request, { type Response } from 'supertest';
import { createApp } from '../../api/app';
import { createDb } from '../../db/database';
import { freePort } from '../../lib/embedded/process-utils';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

/** Asserts the one error body shape and the request id header. */
function assertErrorShape(
  res: Response,
  status: number,
  code: string,
): { code: string; message: string; details?: unknown } {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(String(res.headers['content-type']), /application\/json/);
  assert.deepEqual(Object.keys(res.body), ['error']);
  const keys = Object.keys(res.body.error);
  assert.ok(
    keys.every((k) => ['code', 'message', 'details'].includes(k)),
    keys.join(','),
  );
  assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, 'string');
  assert.match(String(res.headers['x-request-id']), /^[\w.-]{1,64}$/);
  return res.body.error;
}

describe('bad input over HTTP', () => {
  let platform: TestPlatform;
  let tenant: Tenant;
  let agentId: string;

  before(async () => {
    platform = await createTestPlatform(await harness());
    tenant = await createTenant(platform.runtime.db);
    const created = await request(platform.app)
      .post('/api/ai-agents')
      .set(tenant.auth)
      .send({ name: 'steady', model: 'gpt-4o', instructions: 'unchanged' })
      .expect(201);
    agentId = created.body.data.id;
  });
  after(async () => platform?.close());

  const snapshot = async (): Promise<unknown> => ({
    agents: await platform.runtime.db.selectFrom('agents').selectAll().orderBy('id').execute(),
    versions: await platform.runtime.db
      .selectFrom('agent_versions')
      .selectAll()
      .orderBy('agent_id')
      .orderBy('version')
      .execute(),
  });

  /** Sends each request to create and to update, checks status and shape, and that no agent row changed. */
  async function rejectsUnchanged(
    send: (req: request.Test) => request.Test,
    status: number,
    code: string,
  ): Promise<Array<{ code: string; message: string; details?: unknown }>> {
    const before = await snapshot();
    const errors = [];
    for (const req of [
      request(platform.app).post('/api/ai-agents'),
      request(platform.app).patch(`/api/ai-agents/${agentId}`),
    ]) {
      errors.push(assertErrorShape(await send(req.set(tenant.auth)), status, code));
    }
    assert.deepEqual(await snapshot(), before);
    return errors;
  }

  it('answers 400 malformed_json for a body that is not JSON', async () => {
    await rejectsUnchanged(
      (req) => req.set('Content-Type', 'application/json').send('{"name": "x", '),
      400,
      'malformed_json',
    );
  });

  it('answers 400 malformed_json for a JSON scalar body', async () => {
    await rejectsUnchanged(
      (req) => req.set('Content-Type', 'application/json').send('"just a string"'),
      400,
      'malformed_json',
    );
  });

  it('answers 422 naming the field when a field has the wrong type', async () => {
    const errors = await rejectsUnchanged(
      (req) => req.send({ name: 'typed', model: 42, instructions: 'x' }),
      422,
      'validation_failed',
    );
    for (const error of errors) {
      assert.match(error.message, /^model: /);
      assert.deepEqual(
        (error.details as Array<{ field: string }>).map((d) => d.field),
        ['model'],
      );
    }
  });

  it('answers 422 naming every wrong field, nested ones by their path', async () => {
    const [create] = await rejectsUnchanged(
      (req) => req.send({ name: 7, model: 'm', instructions: [], settings: 'x' }),
      422,
      'validation_failed',
    );
    assert.deepEqual((create.details as Array<{ field: string }>).map((d) => d.field).sort(), [
      'instructions',
      'name',
      'settings',
    ]);
  });

  it('answers 422 naming a missing required field on create', async () => {
    const before = await snapshot();
    const res = await request(platform.app)
      .post('/api/ai-agents')
      .set(tenant.auth)
      .send({ name: 'no-model', instructions: '' });
    const error = assertErrorShape(res, 422, 'validation_failed');
    assert.match(error.message, /^model: /);
    assert.deepEqual(error.details, [
      { field: 'model', message: (error.details as Array<{ message: string }>)[0].message },
    ]);
    assert.deepEqual(await snapshot(), before);
  });

  it('answers 422 for a body that is a JSON array rather than an object', async () => {
    await rejectsUnchanged((req) => req.send([{ name: 'in-array' }]), 422, 'validation_failed');
  });

  it('answers 422 naming the field for a string holding a NUL character', async () => {
    const errors = await rejectsUnchanged(
      (req) => req.send({ name: 'nul', model: 'gpt-4o', instructions: 'a\u0000b' }),
      422,
      'validation_failed',
    );
    for (const error of errors) assert.match(error.message, /^instructions: /);
    const [nested] = await rejectsUnchanged(
      (req) => req.send({ name: 'nul', model: 'm', instructions: '', settings: { deep: ['ok', 'x\u0000'] } }),
      422,
      'validation_failed',
    );
    assert.match(nested.message, /^settings\.deep\.1: /);
  });

  it('answers 422 naming the field for a lone UTF-16 surrogate in a value or a key', async () => {
    const errors = await rejectsUnchanged(
      (req) => req.set('Content-Type', 'application/json').send('{"name":"s","model":"m","instructions":"a\\ud800"}'),
      422,
      'validation_failed',
    );
    for (const error of errors) assert.match(error.message, /^instructions: must be well-formed Unicode/);
    const [key] = await rejectsUnchanged(
      (req) =>
        req
          .set('Content-Type', 'application/json')
          .send('{"name":"s","model":"m","instructions":"","settings":{"\\udc00":1}}'),
      422,
      'validation_failed',
    );
    assert.match(key.message, /^settings\.\udc00: must be well-formed Unicode/);
  });

  it('answers 404 for a path holding an encoded NUL and 400 malformed_path for broken percent-encoding', async () => {
    const before = await snapshot();
    for (const id of ['%00', 'a%00b'])
      assertErrorShape(await request(platform.app).get(`/api/ai-agents/${id}`).set(tenant.auth), 404, 'not_found');
    for (const id of ['%E0%A4%A', '%ED%A0%80', '%zz']) {
      const res = await request(platform.app).patch(`/api/ai-agents/${id}`).set(tenant.auth).send({ model: 'x' });
      assertErrorShape(res, 400, 'malformed_path');
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('answers 422 naming the field for settings nested deeper than any handler should recurse', async () => {
    const depth = 150_000;
    const body = `{"name":"deep","model":"m","instructions":"","settings":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const [create] = await rejectsUnchanged(
      (req) => req.set('Content-Type', 'application/json').send(body),
      422,
      'validation_failed',
    );
    assert.match(create.message, /^settings(\.a)+: must not nest deeper/);
  });

  it('answers 413 for a body over the 1mb limit', async () => {
    const huge = { name: 'huge', model: 'gpt-4o', instructions: 'x'.repeat(1024 * 1024 + 1) };
    await rejectsUnchanged((req) => req.send(huge), 413, 'payload_too_large');
  });

  it('answers 415 for a text/plain or form body', async () => {
    await rejectsUnchanged(
      (req) => req.set('Content-Type', 'text/plain').send('{"name":"plain","model":"m","instructions":""}'),
      415,
      'unsupported_media_type',
    );
    await rejectsUnchanged(
      (req) => req.type('form').send({ name: 'form', model: 'm', instructions: '' }),
      415,
      'unsupported_media_type',
    );
  });

  it('answers 404 in the same shape for an unknown route, and echoes a sane incoming X-Request-Id', async () => {
    const res = await request(platform.app).get('/api/nothing-here').set(tenant.auth).set('X-Request-Id', 'trace-123');
    assertErrorShape(res, 404, 'not_found');
    assert.equal(res.headers['x-request-id'], 'trace-123');
  });

  it('replaces an incoming X-Request-Id that is not a plain token', async () => {
    const res = await request(platform.app).get('/healthz').set('X-Request-Id', 'a b<script>');
    assert.notEqual(res.headers['x-request-id'], 'a b<script>');
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('answers a 500 without a stack or the underlying error when Postgres is unreachable', async () => {
    const deadDb = createDb(`postgres://assay@127.0.0.1:${await freePort()}/gone`);
    const { config, runtime, logger } = platform;
    const broken = createApp({ config, db: deadDb, vault: runtime.vault, temporal: runtime.temporal.client, logger });
    try {
      const res = await request(broken).get('/api/ai-agents').set(tenant.auth);
      const error = assertErrorShape(res, 500, 'internal');
      assert.equal(error.details, undefined);
      assert.match(error.message, new RegExp(`request ${res.headers['x-request-id']}`));
      const text = JSON.stringify(res.body);
      for (const leak of ['ECONNREFUSED', 'at ', '.ts:', 'node_modules', '127.0.0.1'])
        assert.equal(text.includes(leak), false, leak);
      assert.ok(
        platform.logs.some((l) => l.includes('unhandled error') && l.includes(String(res.headers['x-request-id']))),
        'the cause is logged',
      );
      await request(broken).get('/readyz').expect(503);
    } finally {
      await deadDb.destroy();
    }
  });
});
