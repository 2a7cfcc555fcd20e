import assert from 'node:assert/strict';
import request from 'supertest';
import { freePort, waitFor } from '../../lib/embedded/process-utils';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness, type Harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { parsePrometheusText, sumOf, type PromSample } from '../helpers/prometheus-text';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';
import { workerPool, type WorkerPool } from '../helpers/worker-process';

const TOKEN = 'metrics-scrape-token-0001';
const BEARER = { Authorization: `Bearer ${TOKEN}` };

// Passed (the judge finds the responses equal), failed (a guardrail fired) and error (no conversation to score).
const ORDER = { session_input: { message: 'Where is my order?' }, final_response: 'It ships tomorrow.' };
const BLOCKED = {
  session_input: { message: 'Cancel my plan' },
  final_response: 'Done.',
  guardrail_events: [{ guardrail: 'pii_filter', stage: 'output', detail: 'masked an e-mail address' }],
};
const UNSOURCED = { name: 'by hand', session_input: { message: 'Hi' }, expected_final_response: 'Hello' };

async function scrape(url: string, headers: Record<string, string> = BEARER): Promise<PromSample[]> {
  const res = await fetch(url, { headers });
  assert.equal(res.status, 200, `${url} → ${res.status}`);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  return parsePrometheusText(await res.text());
}

describe('metrics', () => {
  let h: Harness;
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let workers: WorkerPool;
  let ports: { worker: number; temporal: number };

  before(async () => {
    h = await harness();
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1', METRICS_TOKEN: TOKEN } });
    llm = await startScriptedLlm(judgeReplies({}));
    ports = { worker: await freePort(), temporal: await freePort() };
    // The worker in a process of its own, as in production: its registry holds only what this test's run did.
    workers = workerPool(h, platform.config.TEMPORAL_TASK_QUEUE, {
      WORKER_METRICS_PORT: String(ports.worker),
      TEMPORAL_METRICS_PORT: String(ports.temporal),
      METRICS_TOKEN: TOKEN,
    });
    await workers.spawn();
  });
  after(async () => {
    await workers?.stopAll();
    await llm?.close();
    await platform?.close();
  });

  it("counts a run's cases by status and its judge calls and tokens on the worker's /metrics", async () => {
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.agent('support', 'gpt-4o');
    await api.connect('openai', 'sk-metrics-key-00000001', llm.baseUrl);
    const set = await api.evalSet('support', { name: 'smoke' });
    for (const conversation of [ORDER, BLOCKED])
      await api.promote('support', (await api.importRun('support', conversation)).id, set.id);
    await api.addCase('support', 'smoke', UNSOURCED);

    const run = await api.waitForEnd('support', (await api.trigger('support', 'smoke')).id);
    assert.equal(run.status, 'completed', run.error);
    const results = await api.results('support', run.id);
    const byStatus = (status: string) => results.filter((r) => r.status === status).length;
    assert.deepEqual([byStatus('passed'), byStatus('failed'), byStatus('error')], [1, 1, 1]);
    const usage = (field: string) => results.reduce((sum, r) => sum + (r.judge_usage?.[field] ?? 0), 0);
    assert.ok(usage('calls') > 0);

    const worker = await scrape(`http://127.0.0.1:${ports.worker}/metrics`);
    for (const status of ['passed', 'failed', 'error'])
      assert.equal(sumOf(worker, 'assay_eval_cases_scored_total', { status }), byStatus(status), status);
    assert.equal(sumOf(worker, 'assay_judge_calls_total', { provider: 'openai', outcome: 'ok' }), usage('calls'));
    assert.equal(sumOf(worker, 'assay_judge_calls_total'), llm.requests.length);
    assert.equal(sumOf(worker, 'assay_judge_call_duration_seconds_count', { provider: 'openai' }), usage('calls'));
    assert.equal(sumOf(worker, 'assay_judge_tokens_total', { kind: 'prompt' }), usage('prompt_tokens'));
    assert.equal(sumOf(worker, 'assay_judge_tokens_total', { kind: 'completion' }), usage('completion_tokens'));
    assert.equal(sumOf(worker, 'assay_eval_runs_total', { status: 'completed' }), 1);

    // The Temporal SDK's own metrics, from the runtime's Prometheus exporter on its own port.
    await waitFor('Temporal SDK metrics', async () => {
      const res = await fetch(`http://127.0.0.1:${ports.temporal}/metrics`);
      return res.ok && /^temporal_\w+/m.test(await res.text());
    });
  });

  it('labels api requests by route template, never by the raw path', async () => {
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    const agent = await api.agent('labelled', 'gpt-4o');
    await api.send('get', `/api/ai-agents/${agent.id}`, 200);
    await api.send('get', '/api/ai-agents/no-such-agent', 404);

    const res = await request(platform.app).get('/metrics').set(BEARER);
    assert.equal(res.status, 200);
    const samples = parsePrometheusText(res.text);
    const count = (route: string, status: string) =>
      sumOf(samples, 'assay_http_requests_total', { method: 'GET', route, status });
    assert.ok(count('/api/ai-agents/:agent', '200') >= 1);
    assert.ok(count('/api/ai-agents/:agent', '404') >= 1);
    assert.ok(sumOf(samples, 'assay_http_request_duration_seconds_count', { route: '/api/ai-agents/:agent' }) >= 2);
    const routes = new Set(samples.filter((s) => s.name === 'assay_http_requests_total').map((s) => s.labels.route));
    assert.ok(
      ![...routes].some((route) => route.includes(agent.id) || route.includes('no-such-agent')),
      [...routes].join(),
    );
  });

  it('answers 401 to a scrape without the token or with a wrong one, on the api and the worker', async () => {
    for (const headers of [{}, { Authorization: 'Bearer wrong-token-0000000000' }, { Authorization: TOKEN }]) {
      const res = await request(platform.app).get('/metrics').set(headers);
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'unauthorized');
      assert.equal((await fetch(`http://127.0.0.1:${ports.worker}/metrics`, { headers })).status, 401);
    }
  });

  it('serves /metrics without a token only on an api that only loopback reaches', async () => {
    const local = await createTestPlatform(h);
    const open = await createTestPlatform(h, { env: { ASSAY_HOST: '0.0.0.0' } });
    try {
      assert.equal((await request(local.app).get('/metrics')).status, 200);
      const hidden = await request(open.app).get('/metrics');
      assert.equal(hidden.status, 404);
      assert.equal(hidden.body.error.code, 'not_found');
    } finally {
      await local.close();
      await open.close();
    }
  });
});
