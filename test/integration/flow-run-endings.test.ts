import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { waitFor } from '../../lib/embedded/process-utils';
import { workflowIds } from '../../workflows/temporal-names';
import { waitForFlowRunEnd } from '../helpers/flow-runs';
import { harness } from '../helpers/harness';
import { startPagedMcpServer, type PagedMcpServer } from '../helpers/paged-mcp-server';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const NODE_TIMEOUT_SECONDS = 3;
const text = (value: string) => ({ type: 'string', description: value });

describe('flow runs: own-property node ids and parameters, and a final state for every run', function () {
  this.timeout(120_000);
  const token = `flow-endings-${crypto.randomBytes(12).toString('hex')}`;
  let platform: TestPlatform;
  let peer: PagedMcpServer;
  let tenant: Tenant;
  let serverId: string;
  let waitCalls = 0;
  // `wait` answers only when the test lets it (or never): the tool that never responds.
  const releases: Array<() => void> = [];

  const api = (method: 'get' | 'post', path: string, body?: object) =>
    request(platform.app)[method](path).set(tenant.auth).send(body);
  const node = (id: string, toolName: string, parameters: Record<string, unknown> = {}) => ({
    id,
    kind: 'mcp.call_tool',
    mcp_server_id: serverId,
    tool_name: toolName,
    parameters,
  });
  const startRun = async (nodes: object[]): Promise<string> => {
    const flow = await api('post', '/api/v1/flows', { name: `flow-${crypto.randomUUID()}`, nodes });
    assert.equal(flow.status, 201, flow.text);
    const started = await api('post', `/api/v1/flows/${flow.body.id}/runs`, { variables: { toString: 'own value' } });
    assert.equal(started.status, 201, started.text);
    return started.body.id;
  };
  const settle = (runId: string) => waitForFlowRunEnd((path) => api('get', path), runId, 60_000);
  const handle = (runId: string) => platform.runtime.temporal.client.workflow.getHandle(workflowIds.flowRun(runId));
  const whileWaiting = async (runId: string): Promise<void> => {
    const before = waitCalls;
    await waitFor('the wait tool to be called', async () => waitCalls > before, 30_000);
    assert.equal((await api('get', `/api/v1/flow-runs/${runId}`)).body.status, 'running');
  };

  before(async () => {
    peer = await startPagedMcpServer({
      token,
      pageSize: 10,
      tools: [
        {
          name: 'echo-args',
          description: 'Answers its arguments as JSON',
          inputSchema: {
            type: 'object',
            properties: { constructor: text('c'), toString: text('t'), hasOwnProperty: text('h') },
            required: ['constructor'],
          },
        },
        { name: 'wait', description: 'Answers when released', inputSchema: { type: 'object', properties: {} } },
      ],
      callTool: async (name, args) => {
        if (name === 'wait') {
          waitCalls++;
          await new Promise<void>((resolve) => releases.push(resolve));
        }
        return { content: [{ type: 'text', text: JSON.stringify(args) }] };
      },
    });
    platform = await createTestPlatform(await harness(), {
      env: {
        EGRESS_ALLOWLIST: '127.0.0.1',
        FLOW_NODE_TIMEOUT_SECONDS: String(NODE_TIMEOUT_SECONDS),
        RUN_SWEEP_SECONDS: '1',
      },
    });
    await platform.startWorker();
    tenant = await createTenant(platform.runtime.db, 'owner');
    const created = await api('post', '/api/v1/mcp-servers', {
      name: 'odd-names',
      transport: 'http',
      config: { url: peer.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: token,
    });
    assert.equal(created.status, 201, created.text);
    serverId = created.body.id;
    assert.equal((await api('post', `/api/v1/mcp-servers/${serverId}/refresh-tools`)).status, 200);
  });
  after(async () => {
    for (const release of releases.splice(0)) release();
    await peer?.close();
    await platform?.close();
  });

  it('refuses reserved node ids and a __proto__ parameter with a 422, and still requires a parameter named constructor', async () => {
    const cases: Array<[object, RegExp]> = [
      [node('constructor', 'echo-args', { constructor: 'x' }), /^nodes\.0\.id: is a reserved name/],
      [node('prototype', 'echo-args', { constructor: 'x' }), /^nodes\.0\.id: is a reserved name/],
      [
        node('n1', 'echo-args', JSON.parse('{"constructor":"x","__proto__":{"a":1}}')),
        /^nodes\.0\.parameters\.__proto__: is a reserved name/,
      ],
      [node('n1', 'echo-args', { toString: 'x' }), /^nodes\.0\.parameters\.constructor: is required/],
      [
        node('n1', 'echo-args', { constructor: 'x', valueOf: 'y' }),
        /^nodes\.0\.parameters\.valueOf: is not a parameter/,
      ],
    ];
    const flowsBefore = (await api('get', '/api/v1/flows')).body.length;
    for (const [bad, message] of cases) {
      const res = await api('post', '/api/v1/flows', { name: 'bad', nodes: [bad] });
      assert.equal(res.status, 422, res.text);
      assert.match(res.body.error.message, message);
    }
    assert.equal((await api('get', '/api/v1/flows')).body.length, flowsBefore, 'nothing was written');
  });

  it('runs nodes named toString and hasOwnProperty whose tool takes parameters named constructor and toString', async () => {
    const runId = await startRun([
      node('toString', 'echo-args', { constructor: '{{ variables.toString }}', toString: 'plain' }),
      node('hasOwnProperty', 'echo-args', { constructor: '{{ nodes.toString.output.content[0].text }}' }),
    ]);
    const run = await settle(runId);
    assert.equal(run.body.status, 'completed', run.text);
    const [first, second] = run.body.nodes;
    assert.deepEqual(
      [first.id, first.status, second.id, second.status],
      ['toString', 'completed', 'hasOwnProperty', 'completed'],
    );
    assert.deepEqual(first.arguments, { constructor: 'own value', toString: 'plain' });
    assert.deepEqual(JSON.parse(second.arguments.constructor), { constructor: 'own value', toString: 'plain' });
  });

  it('fails a run whose node times out, naming the node and the timeout; later nodes stay pending', async () => {
    const runId = await startRun([node('slow', 'wait'), node('after', 'echo-args', { constructor: 'x' })]);
    const run = await settle(runId);
    assert.equal(run.body.status, 'failed', run.text);
    assert.equal(run.body.error, `node slow: timed out after ${NODE_TIMEOUT_SECONDS} s`);
    assert.deepEqual(
      run.body.nodes.map((n: { status: string; error: string | null }) => [n.status, n.error]),
      [
        ['failed', `timed out after ${NODE_TIMEOUT_SECONDS} s`],
        ['pending', null],
      ],
    );
    assert.ok(run.body.finished_at);
    // The row ends in the workflow's last activity, just before the workflow closes: wait for it to close.
    await handle(runId)
      .result()
      .catch(() => undefined);
    assert.equal((await handle(runId).describe()).status.name, 'COMPLETED');
  });

  it('ends a cancelled run cancelled, marking the node it stopped', async () => {
    const runId = await startRun([node('held', 'wait')]);
    await whileWaiting(runId);
    await handle(runId).cancel();
    const run = await settle(runId);
    assert.equal(run.body.status, 'cancelled', run.text);
    assert.equal(run.body.error, 'the run was cancelled');
    assert.deepEqual([run.body.nodes[0].status, run.body.nodes[0].error], ['failed', 'cancelled']);
    // The row ends in the workflow's last activity, just before the workflow closes: wait for it to close.
    await handle(runId)
      .result()
      .catch(() => undefined);
    assert.equal((await handle(runId).describe()).status.name, 'CANCELLED');
  });

  it('ends a terminated run cancelled (no workflow code runs: the worker sweep settles it)', async () => {
    const runId = await startRun([node('held', 'wait')]);
    await whileWaiting(runId);
    await handle(runId).terminate('stopped by an operator');
    const run = await settle(runId);
    assert.equal(run.body.status, 'cancelled', run.text);
    assert.equal(run.body.error, 'the run was terminated in Temporal');
    assert.ok(run.body.finished_at);
  });
});
