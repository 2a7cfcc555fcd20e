import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { LIMITS } from '../../domain/limits';
import { evalApi } from '../helpers/eval-api';
import { waitForFlowRunEnd } from '../helpers/flow-runs';
import { harness } from '../helpers/harness';
import { makeTools, startPagedMcpServer, type PagedMcpServer, type PagedTool } from '../helpers/paged-mcp-server';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';
import { lookupCalls } from '../helpers/agent-api';

const calls = lookupCalls;
const withDescription = (tools: PagedTool[], chars: number): PagedTool[] =>
  tools.map((tool) => ({ ...tool, description: 'd'.repeat(chars) }));

describe('limits where data is read back: the worker refuses oversized rows and peers, and stays alive', () => {
  const token = `limits-token-${crypto.randomBytes(16).toString('hex')}`;
  let platform: TestPlatform;
  let peer: PagedMcpServer;
  let tenant: Tenant;
  let serverId: string;

  const refresh = (id = serverId): request.Test =>
    request(platform.app).post(`/api/v1/mcp-servers/${id}/refresh-tools`).set(tenant.auth);
  // Registers a peer with its bearer token as the server's secret; answers the server id.
  const register = async (name: string, url: string): Promise<string> => {
    const created = await request(platform.app)
      .post('/api/v1/mcp-servers')
      .set(tenant.auth)
      .send({
        name,
        transport: 'http',
        config: { url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
        secret_value: token,
      });
    assert.equal(created.status, 201, created.text);
    return created.body.id;
  };
  const storedToolCount = async (): Promise<number> =>
    (await request(platform.app).get(`/api/v1/mcp-servers/${serverId}/tools`).set(tenant.auth)).body.length;

  before(async () => {
    const h = await harness();
    peer = await startPagedMcpServer({ token, pageSize: 100, tools: makeTools(5) });
    // A curated stdio server that answers its first request with 5 MiB and no newline.
    const catalogFile = path.join(h.tmpDir, `catalog-limits-${crypto.randomBytes(4).toString('hex')}.json`);
    const flood = "process.stdin.once('data', () => process.stdout.write('x'.repeat(5 * 1024 * 1024)))";
    const entry = { label: 'Flood', category: 'Test', image: 'https://example.com/f.png', required_secrets: [] };
    const command = [process.execPath, '-e', flood];
    const entries = [{ ...entry, name: 'flood-stdio', transport: 'stdio_curated', command }];
    fs.writeFileSync(catalogFile, JSON.stringify({ entries }));
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1', MCP_CATALOG_FILE: catalogFile } });
    await platform.startWorker();
    tenant = await createTenant(h.db, 'owner');
    serverId = await register('limits-peer', peer.url);
    assert.equal((await refresh()).status, 200);
  });
  after(async () => {
    await platform?.close();
    await peer?.close();
  });

  it('scores stored cases over a limit as errors naming it, and the rest of the run normally', async () => {
    const api = evalApi(platform.app, tenant);
    await api.agent('legacy', 'gpt-4o');
    const set = await api.evalSet('legacy', { name: 'legacy rows' });
    const conversation = (): Record<string, unknown> => ({
      session_input: { message: 'look it up' },
      tool_calls: calls(1),
      final_response: '',
    });
    const honest = await api.importRun('legacy', conversation());
    const oversized = await api.importRun('legacy', conversation());
    const honestCase = await api.promote('legacy', honest.id, set.id, 'honest');
    const longConversationCase = await api.promote('legacy', oversized.id, set.id, 'long conversation');
    const longTrajectoryCase = await api.promote('legacy', honest.id, set.id, 'long trajectory');
    // Rows as they could have been written before the limits existed.
    const db = platform.runtime.db;
    const tooMany = JSON.stringify(calls(LIMITS.toolCallsPerConversation + 1));
    await db.updateTable('conversations').set({ tool_calls: tooMany }).where('id', '=', oversized.id).execute();
    await db
      .updateTable('eval_cases')
      .set({ expected_trajectory: JSON.stringify(calls(LIMITS.toolCallsPerExpectedTrajectory + 1)) })
      .where('id', '=', longTrajectoryCase.id)
      .execute();

    const run = await api.waitForEnd('legacy', (await api.trigger('legacy', set.id)).id);
    assert.equal(run.status, 'completed', JSON.stringify(run));
    const results = new Map((await api.results('legacy', run.id)).map((r) => [r.case_id, r]));
    assert.equal(results.get(honestCase.id).status, 'passed', JSON.stringify(results.get(honestCase.id)));
    const long = results.get(longConversationCase.id);
    assert.equal(long.status, 'error');
    assert.match(long.error, /tool_calls has 1001 items, over the limit of 1000 \(limit toolCallsPerConversation\)/);
    const trajectory = results.get(longTrajectoryCase.id);
    assert.equal(trajectory.status, 'error');
    assert.match(trajectory.error, /expected_trajectory has 1001 items.*\(limit toolCallsPerExpectedTrajectory\)/);
  });

  it('stops paging a server that advertises more tools than the limit and fails the sync saying so', async () => {
    peer.tools = makeTools(LIMITS.toolsPerMcpServer + 500);
    const lists = peer.listCount();
    const res = await refresh();
    assert.equal(res.status, 502, res.text);
    assert.match(res.body.error.message, /more than 1000 tools: at most 1000 items \(limit toolsPerMcpServer\)/);
    // 100 tools a page: the 11th page passes the limit and no 12th page is asked for.
    assert.equal(peer.listCount() - lists, Math.ceil((LIMITS.toolsPerMcpServer + 1) / 100));
    assert.equal(await storedToolCount(), 5, 'the stored tools are kept');
  });

  it('refuses a tool descriptor over the size limit, naming the tool', async () => {
    peer.tools = [...makeTools(2), ...withDescription(makeTools(3).slice(2), LIMITS.toolDescriptorBytes)];
    const res = await refresh();
    assert.equal(res.status, 502, res.text);
    assert.match(res.body.error.message, /^tool t002 has a descriptor of \d+ bytes: .*\(limit toolDescriptorBytes\)$/);
    assert.equal(await storedToolCount(), 5);
  });

  it('stops reading a tools/list response over the size limit', async () => {
    const perTool = LIMITS.toolDescriptorBytes - 1024;
    peer.tools = withDescription(makeTools(Math.ceil(LIMITS.mcpResponseBytes / perTool) + 2), perTool);
    const res = await refresh();
    assert.equal(res.status, 502, res.text);
    assert.match(res.body.error.message, /^the server sent a response of .* bytes: .*\(limit mcpResponseBytes\)$/);
    assert.equal(await storedToolCount(), 5);
  });

  it('stops reading an SSE answer over the size limit and ends the session with the same error', async () => {
    const perTool = LIMITS.toolDescriptorBytes - 1024;
    const tools = withDescription(makeTools(Math.ceil(LIMITS.mcpResponseBytes / perTool) + 2), perTool);
    const ssePeer = await startPagedMcpServer({ token, pageSize: 100, tools, sse: true });
    try {
      const res = await refresh(await register('limits-sse-peer', ssePeer.url));
      assert.equal(res.status, 502, res.text);
      assert.match(res.body.error.message, /^the server sent a response of .* bytes: .*\(limit mcpResponseBytes\)$/);
    } finally {
      await ssePeer.close();
    }
  });

  it('stops reading a stdio server whose answer passes the size limit', async () => {
    const catalog = await request(platform.app).get('/api/v1/mcp-catalog').set(tenant.auth);
    const entry = catalog.body.find((e: { name: string }) => e.name === 'flood-stdio');
    const created = await request(platform.app)
      .post('/api/v1/mcp-servers')
      .set(tenant.auth)
      .send({ catalog_id: entry.id, name: 'flood', transport: 'stdio_curated' });
    assert.equal(created.status, 201, created.text);
    const res = await refresh(created.body.id);
    assert.equal(res.status, 502, res.text);
    assert.match(
      res.body.error.message,
      /^the server sent a response of more than 4194304 bytes: .*\(limit mcpResponseBytes\)$/,
    );
  });

  it('syncs an honest server again on the same worker after every refusal', async () => {
    peer.tools = makeTools(LIMITS.toolsPerMcpServer);
    const res = await refresh();
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.tools_count, LIMITS.toolsPerMcpServer);
  });

  it('fails a flow node whose tool result is over the size limit, and keeps a result of exactly the limit', async () => {
    const call = (method: 'get' | 'post', path: string, body?: object): request.Test =>
      body === undefined
        ? request(platform.app)[method](path).set(tenant.auth)
        : request(platform.app)[method](path).set(tenant.auth).send(body);
    const node = { id: 'echo', kind: 'mcp.call_tool', mcp_server_id: serverId, tool_name: 't000' };
    const flow = await call('post', '/api/v1/flows', {
      name: 'echo-big',
      nodes: [{ ...node, parameters: { text: '{{ variables.text }}' } }],
    });
    assert.equal(flow.status, 201, flow.text);
    const runWith = async (text: string): Promise<request.Response> => {
      const started = await call('post', `/api/v1/flows/${flow.body.id}/runs`, { variables: { text } });
      assert.equal(started.status, 201, started.text);
      return waitForFlowRunEnd((path) => call('get', path), started.body.id);
    };
    // The stored output is the tool's content with its flags; its JSON may take exactly the limit.
    const empty = JSON.stringify({ content: [{ type: 'text', text: '' }], structured_content: null, is_error: false });
    const largest = 'x'.repeat(LIMITS.toolResultBytes - Buffer.byteLength(empty));
    const over = await runWith(`${largest}x`);
    assert.equal(over.body.status, 'failed', over.text.slice(0, 500));
    assert.equal(
      over.body.nodes[0].error,
      `tool t000 returned ${LIMITS.toolResultBytes + 1} bytes: at most ${LIMITS.toolResultBytes} bytes (limit toolResultBytes)`,
    );
    assert.equal(over.body.nodes[0].output ?? null, null, 'the oversized result is not stored');
    const atLimit = await runWith(largest);
    assert.equal(atLimit.body.status, 'completed', atLimit.text.slice(0, 500));
    assert.equal(atLimit.body.nodes[0].output.content[0].text, largest);
  });

  it('fails a run of a stored flow with more nodes than the limit, saying which limit', async () => {
    const node = (i: number): object => ({
      id: `n${i}`,
      kind: 'mcp.call_tool',
      mcp_server_id: serverId,
      tool_name: 't000',
      parameters: { text: 'hi' },
    });
    const flow = await request(platform.app)
      .post('/api/v1/flows')
      .set(tenant.auth)
      .send({ name: 'legacy-flow', nodes: [node(0)] });
    assert.equal(flow.status, 201, flow.text);
    const nodes = Array.from({ length: LIMITS.flowNodes + 1 }, (_, i) => node(i));
    await platform.runtime.db
      .updateTable('flows')
      .set({ nodes: JSON.stringify(nodes) })
      .where('id', '=', flow.body.id)
      .execute();
    const started = await request(platform.app)
      .post(`/api/v1/flows/${flow.body.id}/runs`)
      .set(tenant.auth)
      .send({ variables: {} });
    assert.equal(started.status, 201, started.text);
    const run = await waitForFlowRunEnd((path) => request(platform.app).get(path).set(tenant.auth), started.body.id);
    assert.equal(run.body.status, 'failed', run.text.slice(0, 500));
    assert.equal(run.body.error, 'the flow nodes has 51 items, over the limit of 50 (limit flowNodes)');
    const statuses = new Set(run.body.nodes.map((n: { status: string }) => n.status));
    assert.deepEqual([...statuses], ['pending'], 'no node ran');
  });
});
