import assert from 'node:assert/strict';
import request from 'supertest';
import { pingWorkflow } from '../../workflows/ping.workflow';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant } from '../helpers/tenants';

describe('platform wiring', () => {
  let platform: TestPlatform;

  before(async () => {
    platform = await createTestPlatform(await harness());
  });
  after(async () => platform?.close());

  it('answers /healthz and reports Postgres and Temporal ready on /readyz', async () => {
    await request(platform.app).get('/healthz').expect(200, { status: 'ok' });
    const ready = await request(platform.app).get('/readyz').expect(200);
    assert.deepEqual(ready.body.checks, { postgres: 'ok', temporal: 'ok' });
  });

  it('round-trips a ping workflow through a worker with the encrypted data converter', async () => {
    const worker = await platform.startWorker();
    const result = await platform.runtime.temporal.client.workflow.execute(pingWorkflow, {
      taskQueue: platform.config.TEMPORAL_TASK_QUEUE,
      workflowId: `ping:${Date.now()}`,
      args: [{ message: 'hello' }],
    });
    assert.equal(result.message, 'hello');
    assert.equal(result.worker_pid, process.pid);
    worker.worker.shutdown();
    await worker.running;
  });

  it('creates, reads by name, publishes and deletes an agent', async () => {
    const tenant = await createTenant(platform.runtime.db);
    const created = await request(platform.app)
      .post('/api/ai-agents')
      .set(tenant.auth)
      .send({ name: 'support-bot', model: 'gpt-4o', instructions: 'Be kind.' })
      .expect(201);
    assert.equal(created.body.data.published_version, null);
    const byName = await request(platform.app).get('/api/ai-agents/support-bot').set(tenant.auth).expect(200);
    assert.equal(byName.body.data.id, created.body.data.id);
    const published = await request(platform.app)
      .post(`/api/ai-agents/${created.body.data.id}/publish`)
      .set(tenant.auth)
      .expect(200);
    assert.equal(published.body.data.version, 1);
    await request(platform.app)
      .post('/api/ai-agents')
      .set(tenant.auth)
      .send({ name: 'support-bot', model: 'x', instructions: '' })
      .expect(409);
    await request(platform.app).delete('/api/ai-agents/support-bot').set(tenant.auth).expect(204);
    await request(platform.app).get('/api/ai-agents/support-bot').set(tenant.auth).expect(404);
  });
});
