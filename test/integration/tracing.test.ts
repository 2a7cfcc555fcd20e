import assert from 'node:assert/strict';
import { loadConfig } from '../../lib/config';
import { createTracing } from '../../lib/telemetry/tracing';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const TRIGGER_SPAN = 'POST /api/ai-agents/:agent/eval-sets/:set/run';

/** The span and its ancestors up to the trace's root, as far as the receiver holds them. */
function ancestry(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain = [span];
  for (let parent = byId.get(span.parentSpanId ?? ''); parent; parent = byId.get(parent.parentSpanId ?? ''))
    chain.push(parent);
  return chain;
}

describe('traces over OTLP/HTTP', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let receiver: OtlpReceiver;
  let api: ReturnType<typeof evalApi>;

  before(async () => {
    const h = await harness();
    receiver = await startOtlpReceiver();
    platform = await createTestPlatform(h, {
      env: {
        EGRESS_ALLOWLIST: '127.0.0.1',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_SERVICE_NAME: 'assay-test',
      },
    });
    await platform.startWorker();
    llm = await startScriptedLlm(judgeReplies({}));
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.agent('support', 'gpt-4o');
    await api.connect('openai', 'sk-workspace-openai-key-0001', llm.baseUrl);
    const set = await api.evalSet('support', { name: 'traced' });
    for (const [message, answer] of [
      ['Where is my order 42?', 'Your order ships tomorrow.'],
      ['Cancel my plan', 'Done, your plan is cancelled.'],
    ]) {
      const conversation = await api.importRun('support', { session_input: { message }, final_response: answer });
      await api.promote('support', conversation.id, set.id, message);
    }
  });

  after(async () => {
    await llm?.close();
    await platform?.close();
    await receiver?.close();
  });

  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    assert.equal(createTracing(loadConfig({})), null);
  });

  it('links the HTTP trigger, the workflow, its activities and every judge call in one trace', async () => {
    const queued = await api.trigger('support', 'traced');
    const run = await api.waitForEnd('support', queued.id);
    assert.equal(run.status, 'completed', run.error);
    assert.ok(llm.requests.length >= 2, `the judge was called ${llm.requests.length} times`);

    const judgeSpans = (): ReceivedSpan[] =>
      receiver.spans.filter((s) => s.name === 'judge.chat' && s.attributes['assay.eval_run.id'] === run.id);
    const deadline = Date.now() + 20_000;
    // A workflow's span is exported when its workflow task completes, after the judge spans: wait for whole chains.
    const chained = (): boolean =>
      judgeSpans().every((span) => ancestry(span, receiver.spans).at(-1)?.name === TRIGGER_SPAN);
    while (
      judgeSpans().length < llm.requests.length ||
      !receiver.spans.some((s) => s.name === TRIGGER_SPAN) ||
      !chained()
    ) {
      assert.ok(Date.now() < deadline, `spans received: ${receiver.spans.map((s) => s.name).join(', ')}`);
      await platform.runtime.tracing?.flush();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const judged = judgeSpans();
    assert.equal(judged.length, llm.requests.length, 'one span per judge call');
    const [trigger] = receiver.spans.filter((s) => s.name === TRIGGER_SPAN);
    assert.equal(trigger.kind, 2, 'a server span');
    assert.equal(trigger.service, 'assay-test');
    assert.equal(trigger.attributes['http.response.status_code'], 201);
    for (const span of judged) {
      assert.equal(span.traceId, trigger.traceId);
      assert.equal(span.attributes['gen_ai.request.model'], run.judge.model);
      const names = ancestry(span, receiver.spans).map((s) => s.name);
      // judge.chat ← RunActivity:x ← StartActivity:x ← RunWorkflow ← StartWorkflow ← the HTTP trigger.
      const chain = names.join(' ← ');
      assert.match(
        chain,
        /^judge\.chat ← RunActivity:(\w+) ← StartActivity:\1 ← RunWorkflow:evalRunWorkflow ← /,
        chain,
      );
      assert.ok(chain.endsWith(`← StartWorkflow:evalRunWorkflow ← ${TRIGGER_SPAN}`), chain);
    }
  });

  it('names HTTP spans by the route template, never by the raw path', () => {
    const reads = receiver.spans.filter((s) => s.name === 'GET /api/ai-agents/:agent/eval-runs/:evalRun');
    assert.ok(reads.length > 0, receiver.spans.map((s) => s.name).join(', '));
    assert.equal(reads[0].attributes['http.route'], '/api/ai-agents/:agent/eval-runs/:evalRun');
    assert.deepEqual(
      receiver.spans.filter((s) => /support|[0-9a-f]{8}-/.test(s.name)).map((s) => s.name),
      [],
    );
  });
});
