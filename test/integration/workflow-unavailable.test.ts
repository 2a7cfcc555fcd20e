import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import request from 'supertest';
import { createApp } from '../../api/app';
import { freePort } from '../../lib/embedded/process-utils';
import { createEchoFlow } from '../helpers/fuzz-fixtures';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

describe('starting a workflow while Temporal is unreachable', () => {
  let platform: TestPlatform;
  let tenant: Tenant;
  let connection: Connection;
  let broken: ReturnType<typeof createApp>;

  before(async () => {
    platform = await createTestPlatform(await harness());
    tenant = await createTenant(platform.runtime.db);
    connection = Connection.lazy({
      address: `127.0.0.1:${await freePort()}`,
      connectTimeout: '1s',
      // No gRPC retries: the first refused call is the answer, rather than ten backed-off ones.
      interceptors: [],
    });
    const temporal = new Client({ connection, namespace: platform.config.TEMPORAL_NAMESPACE });
    const { config, runtime, logger } = platform;
    broken = createApp({ config, db: runtime.db, vault: runtime.vault, temporal, logger });
  });
  after(async () => {
    await connection?.close();
    await platform?.close();
  });

  const api = (path: string, body: object): request.Test =>
    request(platform.app).post(path).set(tenant.auth).send(body);

  it('answers 503 unavailable for a flow run and leaves the run failed, not running', async () => {
    const { flow } = await createEchoFlow(platform, () => request.agent(platform.app).set(tenant.auth), 'down');

    const res = await request(broken).post(`/api/v1/flows/${flow.id}/runs`).set(tenant.auth).send({ variables: {} });

    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'unavailable');
    const runs = await platform.runtime.db.selectFrom('flow_runs').selectAll().where('flow_id', '=', flow.id).execute();
    assert.deepEqual(
      runs.map((run) => [run.id, run.status]),
      [[res.body.error.details.run_id, 'failed']],
    );
  });

  it('answers 503 unavailable for an eval run and leaves the run failed, not queued', async () => {
    const agent = (await api('/api/ai-agents', { name: 'down', model: 'gpt-4o', instructions: '' }).expect(201)).body
      .data;
    const set = (await api(`/api/ai-agents/${agent.id}/eval-sets`, { name: 'down' }).expect(201)).body.data;
    await api(`/api/ai-agents/${agent.id}/eval-sets/${set.id}/cases`, {
      name: 'c',
      session_input: { message: 'hi' },
    }).expect(201);

    const res = await request(broken)
      .post(`/api/ai-agents/${agent.id}/eval-sets/${set.id}/run`)
      .set(tenant.auth)
      .send({});

    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'unavailable');
    const runs = await platform.runtime.db
      .selectFrom('eval_runs')
      .selectAll()
      .where('eval_set_id', '=', set.id)
      .execute();
    assert.deepEqual(
      runs.map((run) => [run.id, run.status]),
      [[res.body.error.details.run_id, 'failed']],
    );
  });

  it('answers 503 unavailable for an MCP server test and tool refresh, and leaves the server as it was', async () => {
    const { server } = await createEchoFlow(platform, () => request.agent(platform.app).set(tenant.auth), 'down-mcp');
    const serverRow = () =>
      platform.runtime.db
        .selectFrom('mcp_servers')
        .select(['status', 'last_test', 'last_error', 'synced_at'])
        .where('id', '=', server.id)
        .executeTakeFirstOrThrow();
    const before = await serverRow();

    for (const action of ['test', 'refresh-tools']) {
      const res = await request(broken).post(`/api/v1/mcp-servers/${server.id}/${action}`).set(tenant.auth).send();
      assert.equal(res.status, 503, `${action}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'unavailable');
    }
    assert.deepEqual(await serverRow(), before);
  });

  it('answers MCP test and refresh-tools with 503 within 15 s when Temporal is up but no worker polls the queue', async () => {
    const { server } = await createEchoFlow(platform, () => request.agent(platform.app).set(tenant.auth), 'idle-mcp');
    for (const action of ['test', 'refresh-tools']) {
      const started = Date.now();
      const res = await request(platform.app).post(`/api/v1/mcp-servers/${server.id}/${action}`).set(tenant.auth);
      const took = Date.now() - started;
      assert.equal(res.status, 503, `${action}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'unavailable');
      assert.equal(
        res.body.error.message,
        `no worker is polling task queue ${platform.config.TEMPORAL_TASK_QUEUE}: start a worker (assay worker) and retry`,
      );
      assert.ok(took <= 15_000, `${action} answered after ${took} ms`);
    }
    // Nothing was left for a worker to pick up later.
    const ids = [`mcp-server-test:${server.id}`, `mcp-tool-sync:${server.id}`];
    for (const id of ids)
      await assert.rejects(platform.runtime.temporal.client.workflow.getHandle(id).describe(), /not found/i, id);
  });

  it('answers 503 unavailable for a production agent run and records no conversation', async () => {
    const agent = (await api('/api/ai-agents', { name: 'down-run', model: 'gpt-4o', instructions: '' }).expect(201))
      .body.data;
    await api(`/api/ai-agents/${agent.id}/publish`, {}).expect(200);
    await request(platform.app)
      .put('/api/workspaces/current/integrations/openai')
      .set(tenant.auth)
      .send({ api_key: 'sk-down-0123456789abcdef' })
      .expect(200);

    const res = await request(broken).post(`/api/ai-agents/${agent.id}/runs`).set(tenant.auth).send({ message: 'hi' });

    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'unavailable');
    const listed = await request(platform.app).get(`/api/ai-agents/${agent.id}/runs`).set(tenant.auth).expect(200);
    assert.deepEqual(listed.body.data, []);
  });
});
