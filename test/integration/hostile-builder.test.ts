import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { LIMITS, type LimitName } from '../../domain/limits';
import { waitFor } from '../../lib/embedded/process-utils';
import { lookupCalls, publishedAgent, runAgent, userMessage } from '../helpers/agent-api';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { startHealthProber, type HealthProber } from '../helpers/health-prober';
import { judgeGate } from '../helpers/judge-gate';
import { makeTools, startPagedMcpServer, type PagedMcpServer } from '../helpers/paged-mcp-server';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

const HONEST_CASES = 20;
const HONEST_KEY = 'sk-honest-workspace-key-0001';
const AGENT_MODEL = 'gpt-4o';
const judge = judgeReplies({});
const calls = lookupCalls;

describe('a hostile builder cannot hurt the platform or another workspace', () => {
  const mcpToken = `hostile-mcp-${crypto.randomBytes(16).toString('hex')}`;
  // The honest workspace's judge replies wait here, so its run is provably in flight during every hostile step.
  const honestGate = judgeGate();
  let honestRepliesDuringHostileSteps = 0;
  let hostileStepsOver = false;
  let platform: TestPlatform;
  let server: http.Server;
  let prober: HealthProber;
  let llm: ScriptedLlm;
  let peer: PagedMcpServer;
  let hostile: Tenant;
  let api: ReturnType<typeof evalApi>;
  let honest: ReturnType<typeof evalApi>;
  let honestRunId: string;
  // When each test began, so the worst probe can be told apart by the step it fell in.
  const steps: Array<{ title: string; at: number }> = [{ title: 'setup', at: 0 }];

  // Agents of the hostile workspace echo the user; every judge approves equal responses.
  const script = async (req: ScriptedRequest) => {
    if (req.authorization === `Bearer ${HONEST_KEY}`) {
      await honestGate.acquire();
      if (!hostileStepsOver) honestRepliesDuringHostileSteps++;
      return judge(req);
    }
    return req.model === AGENT_MODEL ? { content: `echo: ${userMessage(req.messages)}` } : judge(req);
  };

  /** Checks a 422 names `field` and the limit (key and value), as every limit refusal does. */
  const assertRefused = (body: any, field: string, limit: LimitName): void => {
    assert.equal(body.error.code, 'validation_failed');
    assert.ok(body.error.message.startsWith(`${field}: `), body.error.message);
    assert.ok(body.error.message.endsWith(`at most ${LIMITS[limit]} items (limit ${limit})`), body.error.message);
    const detail = body.error.details.find((d: { field: string }) => d.field === field);
    assert.deepEqual({ limit: detail?.limit, max: detail?.max }, { limit, max: LIMITS[limit] });
  };

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    server = http.createServer(platform.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    prober = startHealthProber(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`);
    llm = await startScriptedLlm(script);
    peer = await startPagedMcpServer({ token: mcpToken, pageSize: 100, tools: makeTools(5) });
    hostile = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, hostile);
    await api.connect('openai', 'sk-hostile-workspace-key-0002', llm.baseUrl);
    honest = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await honest.connect('openai', HONEST_KEY, llm.baseUrl);
  });
  beforeEach(function () {
    steps.push({ title: this.currentTest?.title ?? '', at: Date.now() });
  });
  after(async () => {
    honestGate.release(Infinity);
    await prober?.stop();
    server?.close();
    await peer?.close();
    await llm?.close();
    await platform?.close();
  });

  it('starts an honest eval run in another workspace and holds it in flight', async () => {
    await honest.agent('helper', AGENT_MODEL);
    const set = await honest.evalSet('helper', { name: 'honest' });
    for (let i = 0; i < HONEST_CASES; i++) {
      const conversation = await honest.importRun('helper', {
        session_input: { message: `question ${i}` },
        final_response: `answer ${i}`,
      });
      await honest.promote('helper', conversation.id, set.id);
    }
    honestRunId = (await honest.trigger('helper', set.id)).id;
    const asked = (): boolean => llm.requests.some((r) => r.authorization === `Bearer ${HONEST_KEY}`);
    await waitFor('the honest run to ask its judge', async () => asked(), 60_000);
  });

  it('runs a (a+)+b guardrail over a 50,000-character message of a’s, with the right verdict either way', async () => {
    honestGate.release(4);
    const settings = {
      guardrails: [{ type: 'blocked_patterns', name: 'nested', action: 'block', patterns: ['(a+)+b'] }],
      safe_reply: 'Refused.',
    };
    await publishedAgent(api, 'nested', AGENT_MODEL, settings);
    const long = 'a'.repeat(50_000);
    const passed = await runAgent(api, 'nested', long);
    assert.equal(passed.final_response, `echo: ${long}`);
    assert.deepEqual(passed.guardrail_events, []);
    const blocked = await runAgent(api, 'nested', `${long}b`);
    assert.equal(blocked.stop_reason, 'input_blocked');
    assert.equal(blocked.final_response, 'Refused.');
  });

  it('refuses one tool call over each trajectory limit and scores the largest allowed trajectories', async () => {
    honestGate.release(4);
    await api.agent('tracer', AGENT_MODEL);
    const set = await api.evalSet('tracer', { name: 'largest' });
    const runsPath = '/api/ai-agents/tracer/runs';
    const imported = (n: number) => ({
      session_input: { message: 'look up everything' },
      tool_calls: calls(n),
      final_response: 'found them all',
    });
    const tooLong = await api.send('post', `${runsPath}/import`, 422, imported(LIMITS.toolCallsPerConversation + 1));
    assertRefused(tooLong, 'tool_calls', 'toolCallsPerConversation');
    assert.deepEqual((await api.send('get', runsPath, 200)).data, [], 'nothing written');
    const expected = (n: number) => ({
      name: 'by hand',
      session_input: { message: 'hi' },
      expected_trajectory: calls(n),
    });
    const casesPath = `/api/ai-agents/tracer/eval-sets/${set.id}/cases`;
    const tooLongCase = await api.send('post', casesPath, 422, expected(LIMITS.toolCallsPerExpectedTrajectory + 1));
    assertRefused(tooLongCase, 'expected_trajectory', 'toolCallsPerExpectedTrajectory');
    assert.deepEqual((await api.send('get', casesPath, 200)).data, [], 'nothing written');

    const largest = await api.importRun('tracer', imported(LIMITS.toolCallsPerConversation));
    const promoted = await api.promote('tracer', largest.id, set.id, 'promoted');
    // Every other expected call differs from the conversation's, so exactly half of them align.
    const halves = calls(LIMITS.toolCallsPerExpectedTrajectory).map((call, i) =>
      i % 2 ? { ...call, tool_args: { ...call.tool_args, other: true } } : call,
    );
    const byHand = await api.addCase('tracer', set.id, { ...expected(0), expected_trajectory: halves });
    const queued = await api.trigger('tracer', set.id, {
      run_selection: 'explicit',
      conversations: { [byHand.id]: largest.id },
    });
    const run = await api.waitForEnd('tracer', queued.id, 90_000);
    assert.equal(run.status, 'completed', run.error);
    const results = new Map((await api.results('tracer', run.id)).map((r) => [r.case_id, r]));
    const whole = results.get(promoted.id).criteria.tool_trajectory_avg_score;
    assert.equal(whole.score, 1);
    assert.equal(whole.detail.matched.length, LIMITS.toolCallsPerConversation);
    const half = results.get(byHand.id).criteria.tool_trajectory_avg_score;
    assert.equal(half.score, 0.5);
    assert.equal(half.detail.missing.length, LIMITS.toolCallsPerExpectedTrajectory / 2);
    assert.equal(half.detail.extra.length, LIMITS.toolCallsPerConversation / 2);
  });

  it('refuses an MCP server advertising more tools than the limit, keeping the stored tools and the worker', async () => {
    honestGate.release(4);
    const registered = await api.send('post', '/api/v1/mcp-servers', 201, {
      name: 'flood',
      transport: 'http',
      config: { url: peer.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: mcpToken,
    });
    const refresh = (): request.Test =>
      request(platform.app).post(`/api/v1/mcp-servers/${registered.id}/refresh-tools`).set(hostile.auth);
    const stored = async (): Promise<number> =>
      (await api.send('get', `/api/v1/mcp-servers/${registered.id}/tools`, 200)).length;
    assert.equal((await refresh()).status, 200);

    peer.tools = makeTools(LIMITS.toolsPerMcpServer + 500);
    const flooded = await refresh();
    assert.equal(flooded.status, 502, flooded.text.slice(0, 500));
    const limit = LIMITS.toolsPerMcpServer;
    assert.match(flooded.body.error.message, new RegExp(`at most ${limit} items \\(limit toolsPerMcpServer\\)$`));
    assert.equal(await stored(), 5, 'nothing of the oversized list is stored');

    peer.tools = makeTools(LIMITS.toolsPerMcpServer);
    const largest = await refresh();
    assert.equal(largest.status, 200, largest.text.slice(0, 500));
    assert.equal(largest.body.tools_count, LIMITS.toolsPerMcpServer);
  });

  it('completes the honest run with every case scored, and /healthz answered every probe within 1 s', async () => {
    hostileStepsOver = true;
    assert.ok(honestRepliesDuringHostileSteps > 0, 'the honest run made progress during the hostile steps');
    honestGate.release(Infinity);
    const run = await honest.waitForEnd('helper', honestRunId, 90_000);
    assert.equal(run.status, 'completed', run.error);
    assert.deepEqual(run.summary.counts, { total: HONEST_CASES, passed: HONEST_CASES, failed: 0, error: 0 });
    assert.equal((await honest.results('helper', run.id)).length, HONEST_CASES);

    const probes = await prober.stop();
    const worst = probes.reduce((a, b) => (b.ms > a.ms ? b : a));
    const during = steps.filter((step) => step.at <= worst.at).at(-1)?.title;
    console.log(`      /healthz: ${probes.length} probes, worst ${worst.ms} ms, during "${during}"`);
    assert.ok(probes.length >= 10, `only ${probes.length} probes`);
    assert.deepEqual(
      probes.filter((p) => p.status !== 200 || p.ms >= 1_000),
      [],
      'every probe answered 200 within 1 s',
    );
  });
});
