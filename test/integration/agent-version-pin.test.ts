import assert from 'node:assert/strict';
import { waitFor } from '../../lib/embedded/process-utils';
import { publishedAgent, userMessage } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

// Two cases at a time over four: the last two start only after the test has published a second version.
const CONCURRENCY = 2;
const CASES = 4;
const FIRST = { model: 'gpt-4o', instructions: 'You are pinned.' };
const SECOND = { model: 'gpt-4.1', instructions: 'You are version two.' };

const systemPrompt = (req: ScriptedRequest): string | null =>
  req.messages.find((m) => m.role === 'system')?.content ?? null;

describe('live eval runs pin the agent version at preflight', function () {
  this.timeout(120_000);
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  // The agent's model calls wait here until the test lets them through.
  const gate: JudgeGate = judgeGate();
  let api: ReturnType<typeof evalApi>;

  // The model calls of one run's cases: the requests received since `from`.
  const requestsSince = (from: number): ScriptedRequest[] => llm.requests.slice(from);

  before(async () => {
    platform = await createTestPlatform(await harness(), {
      env: { EGRESS_ALLOWLIST: '127.0.0.1', EVAL_CONCURRENCY: String(CONCURRENCY) },
    });
    await platform.startWorker();
    llm = await startScriptedLlm(async (req) => {
      await gate.acquire();
      return { content: `answered ${userMessage(req.messages)}` };
    });
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-agent-version-pin-key-5e1d', llm.baseUrl);
    await api.send('post', '/api/ai-agents', 201, { name: 'pinned', ...FIRST });
    await api.send('post', '/api/ai-agents/pinned/publish', 200);
    await api.evalSet('pinned', { name: 'cases' });
    for (let i = 0; i < CASES; i++)
      await api.addCase('pinned', 'cases', {
        name: `case ${i}`,
        session_input: { message: `case ${i}` },
        expected_trajectory: [],
      });
  });
  afterEach(() => gate.release(Infinity));
  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it('runs every case on the pinned version when a new version is published while the run is in flight', async () => {
    const from = llm.requests.length;
    const started = await api.trigger('pinned', 'cases', { mode: 'live' });
    // The first cases are asking the model: preflight has pinned, and the later cases have not started yet.
    await waitFor('the first cases to reach the model', async () => requestsSince(from).length >= CONCURRENCY, 60_000);
    const running = (await api.send('get', `/api/ai-agents/pinned/eval-runs/${started.id}`, 200)).data;
    assert.deepEqual(running.agent, { version: 1, model: FIRST.model, provider: 'openai' });

    await api.send('patch', '/api/ai-agents/pinned', 200, SECOND);
    const published = (await api.send('post', '/api/ai-agents/pinned/publish', 200)).data;
    assert.deepEqual([published.version, published.model], [2, SECOND.model]);
    const beforeRelease = requestsSince(from).length;
    gate.release(Infinity);

    const run = await api.waitForEnd('pinned', started.id);
    assert.equal(run.status, 'completed', run.error);
    assert.deepEqual(run.agent, { version: 1, model: FIRST.model, provider: 'openai' });
    const asked = requestsSince(from);
    // Each case asked once; those past the first lanes asked only after version 2 was published.
    assert.equal(asked.length, CASES);
    assert.equal(new Set(asked.map((req) => userMessage(req.messages))).size, CASES);
    assert.ok(asked.length - beforeRelease >= CASES - CONCURRENCY, 'no case started after the publication');
    assert.deepEqual(
      asked.map((req) => [req.model, systemPrompt(req)]),
      asked.map(() => [FIRST.model, FIRST.instructions]),
    );
    const results = await api.results('pinned', run.id);
    assert.equal(results.length, CASES);
    for (const result of results) {
      const conversation = (await api.send('get', `/api/ai-agents/pinned/runs/${result.conversation_id}`, 200)).data;
      assert.deepEqual(
        [conversation.source, conversation.agent_version, conversation.model],
        ['sandbox', 1, FIRST.model],
      );
    }
  });

  it('pins the version published when the next live run starts', async () => {
    gate.release(Infinity);
    const from = llm.requests.length;
    const run = await api.waitForEnd('pinned', (await api.trigger('pinned', 'cases', { mode: 'live' })).id);
    assert.equal(run.status, 'completed', run.error);
    assert.deepEqual(run.agent, { version: 2, model: SECOND.model, provider: 'openai' });
    const lastRun = requestsSince(from);
    assert.equal(lastRun.length, CASES);
    assert.deepEqual(
      lastRun.map((req) => [req.model, systemPrompt(req)]),
      lastRun.map(() => [SECOND.model, SECOND.instructions]),
    );
  });

  it('refuses a live run of a published version that cannot run, naming the model, and creates no run', async () => {
    await publishedAgent(api, 'unknown-model', 'llama-3.1-70b');
    await api.evalSet('unknown-model', { name: 'set' });
    await api.addCase('unknown-model', 'set', { name: 'one', session_input: { message: 'hello' } });
    const refused = await api.send('post', '/api/ai-agents/unknown-model/eval-sets/set/run', 409, { mode: 'live' });
    assert.deepEqual(refused.error, {
      code: 'agent_model_unresolvable',
      message: 'cannot derive a provider from the agent model "llama-3.1-70b"',
    });
    assert.deepEqual((await api.send('get', '/api/ai-agents/unknown-model/eval-sets/set/runs', 200)).data, []);
  });
});
