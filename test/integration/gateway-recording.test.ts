import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import {
  closeGatewayConversation,
  openGatewayConversation,
  recordGatewayCall,
  type GatewayCallRecord,
} from '../../db/gateway-recording.repository';
import { LIMITS } from '../../domain/limits';
import { evalApi } from '../helpers/eval-api';
import { harness, type Harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const call = (tool: string, args: Record<string, unknown>, result: unknown, startedAt: Date): GatewayCallRecord => ({
  serverId: crypto.randomUUID(),
  serverName: 'everything',
  tool,
  exposedName: `everything__${tool}`,
  arguments: args,
  result,
  isError: false,
  latencyMs: 12.4,
  argumentBytes: JSON.stringify(args).length,
  resultBytes: JSON.stringify(result).length,
  startedAt,
});

describe('Gateway recording: one conversation per session, bounded, scored like any other', () => {
  let h: Harness;
  let platform: TestPlatform;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  let agentId: string;

  const open = (mcpSessionId = crypto.randomUUID()): Promise<string> =>
    openGatewayConversation(h.db, { workspaceId: tenant.workspaceId, agentId, mcpSessionId, tokenId: null });
  const conversation = async (id: string): Promise<any> =>
    (await api.send('get', `/api/ai-agents/recorded/runs/${id}`, 200)).data;
  const setCapture = (capture: string): Promise<any> =>
    api.send('patch', '/api/ai-agents/recorded', 200, { gateway_capture: capture });

  before(async () => {
    h = await harness();
    platform = await createTestPlatform(h);
    await platform.startWorker();
    tenant = await createTenant(h.db, 'owner');
    api = evalApi(platform.app, tenant);
    const agent = await api.agent('recorded', 'gpt-4o');
    assert.equal(agent.gateway_capture, 'metadata');
    agentId = agent.id;
  });
  after(async () => {
    await platform?.close();
  });

  it('validates gateway_capture on agent create and update', async () => {
    const bad = await api.send('patch', '/api/ai-agents/recorded', 422, { gateway_capture: 'everything' });
    assert.equal(bad.error.details[0].field, 'gateway_capture');
    assert.equal((await setCapture('full')).data.gateway_capture, 'full');
  });

  it('opens one conversation per MCP session, again on a second open of the same session', async () => {
    const session = crypto.randomUUID();
    const first = await open(session);
    assert.equal(await open(session), first);
    assert.notEqual(await open(), first);
    const row = await conversation(first);
    assert.deepEqual([row.source, row.mcp_session_id, row.truncated, row.tool_calls], ['gateway', session, false, []]);
  });

  it('keeps arguments and results under full capture, in order of start even when calls finish out of order', async () => {
    await setCapture('full');
    const id = await open();
    const t0 = Date.now();
    // The later call is written first: the conversation still lists calls by their start.
    await recordGatewayCall(
      h.db,
      id,
      call('get-sum', { a: 2, b: 3 }, { content: [{ type: 'text', text: '5' }] }, new Date(t0 + 5)),
    );
    await recordGatewayCall(
      h.db,
      id,
      call('echo', { message: 'hi' }, { content: [{ type: 'text', text: 'Echo: hi' }] }, new Date(t0)),
    );
    await closeGatewayConversation(h.db, id);
    const row = await conversation(id);
    assert.deepEqual(
      row.tool_calls.map((c: any) => [c.tool_name, c.server, c.exposed_name, c.tool_args, c.result]),
      [
        [
          'echo',
          'everything',
          'everything__echo',
          { message: 'hi' },
          { content: [{ type: 'text', text: 'Echo: hi' }] },
        ],
        ['get-sum', 'everything', 'everything__get-sum', { a: 2, b: 3 }, { content: [{ type: 'text', text: '5' }] }],
      ],
    );
    assert.deepEqual(
      row.tool_calls.map((c: any) => [c.latency_ms, c.started_at]),
      [
        [12, new Date(t0).toISOString()],
        [12, new Date(t0 + 5).toISOString()],
      ],
    );
    assert.ok(Number.isInteger(row.latency_ms), 'closing sets the session duration');
  });

  it('keeps only names, sizes, latency and outcome under metadata capture', async () => {
    await setCapture('metadata');
    const id = await open();
    const secretArg = { api_key: 'sk-never-recorded-4411' };
    await recordGatewayCall(h.db, id, { ...call('echo', secretArg, { content: [] }, new Date()), isError: true });
    const [recorded] = (await conversation(id)).tool_calls;
    assert.deepEqual(recorded.tool_args, {});
    assert.equal(recorded.result, undefined);
    assert.equal(recorded.error, 'tool echo returned an error');
    assert.equal(recorded.argument_bytes, JSON.stringify(secretArg).length);
    assert.doesNotMatch(JSON.stringify(await conversation(id)), /sk-never-recorded/);
  });

  it('stops keeping calls past toolCallsPerConversation and drops an oversized result, marking it truncated', async () => {
    await setCapture('full');
    const big = await open();
    await recordGatewayCall(
      h.db,
      big,
      call('echo', { message: 'x' }, { text: 'y'.repeat(LIMITS.toolResultBytes) }, new Date()),
    );
    const oversized = await conversation(big);
    assert.deepEqual([oversized.truncated, oversized.tool_calls[0].result], [true, undefined]);
    assert.deepEqual(oversized.tool_calls[0].tool_args, { message: 'x' });

    const full = await open();
    const filler = Array.from({ length: LIMITS.toolCallsPerConversation }, (_, i) => ({
      tool_name: 'echo',
      tool_args: {},
      started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    }));
    await h.db
      .updateTable('conversations')
      .set({ tool_calls: JSON.stringify(filler) })
      .where('id', '=', full)
      .execute();
    await recordGatewayCall(h.db, full, call('get-sum', { a: 1, b: 1 }, { content: [] }, new Date()));
    const row = await conversation(full);
    assert.equal(row.tool_calls.length, LIMITS.toolCallsPerConversation);
    assert.equal(row.truncated, true);
    assert.ok(!row.tool_calls.some((c: any) => c.tool_name === 'get-sum'));
  });

  it('lists only gateway conversations with ?source=gateway', async () => {
    await api.importRun('recorded', { session_input: { message: 'hello' }, final_response: 'hi' });
    const all = (await api.send('get', '/api/ai-agents/recorded/runs?limit=500', 200)).data;
    const gateway = (await api.send('get', '/api/ai-agents/recorded/runs?source=gateway&limit=500', 200)).data;
    assert.ok(all.some((c: any) => c.source === 'imported'));
    assert.ok(gateway.length > 0 && gateway.every((c: any) => c.source === 'gateway'));
    const bad = await api.send('get', '/api/ai-agents/recorded/runs?source=elsewhere', 422);
    assert.equal(bad.error.details[0].field, 'source');
  });

  it('promotes a recorded session to a case that an offline run scores by its trajectory', async () => {
    await setCapture('full');
    const recordSession = async (b: number): Promise<string> => {
      const id = await open();
      const t0 = Date.now();
      await recordGatewayCall(h.db, id, call('echo', { message: 'sum' }, { content: [] }, new Date(t0)));
      await recordGatewayCall(h.db, id, call('get-sum', { a: 2, b }, { content: [] }, new Date(t0 + 1)));
      await closeGatewayConversation(h.db, id);
      return id;
    };
    const good = await recordSession(3);
    const drifted = await recordSession(4);
    const set = await api.evalSet('recorded', { name: 'gateway-sessions' });
    const promoted = await api.promote('recorded', good, set.id);
    assert.deepEqual(
      promoted.expected_trajectory.map((c: any) => [c.tool_name, c.server, c.tool_args]),
      [
        ['echo', 'everything', { message: 'sum' }],
        ['get-sum', 'everything', { a: 2, b: 3 }],
      ],
    );
    const scoreAgainst = async (body: Record<string, unknown>): Promise<any> => {
      const queued = await api.trigger('recorded', set.id, body);
      const run = await api.waitForEnd('recorded', queued.id);
      assert.equal(run.status, 'completed', run.error);
      const [result] = await api.results('recorded', run.id);
      return result;
    };
    const own = await scoreAgainst({});
    assert.equal(own.criteria.tool_trajectory_avg_score.score, 1);
    assert.equal(own.status, 'passed');
    const other = await scoreAgainst({ run_selection: 'explicit', conversations: { [promoted.id]: drifted } });
    assert.equal(other.status, 'failed');
    assert.deepEqual(other.criteria.tool_trajectory_avg_score.detail.extra, [
      { actual_index: 1, tool_name: 'get-sum', server: 'everything', tool_args: { a: 2, b: 4 } },
    ]);
  });
});
