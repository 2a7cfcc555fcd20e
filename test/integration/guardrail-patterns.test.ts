import assert from 'node:assert/strict';
import { publishedAgent, runAgent, userMessage } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const guardrailsWith = (patterns: string[], action = 'block'): Record<string, unknown> => ({
  guardrails: [{ type: 'blocked_patterns', name: 'user_patterns', action, patterns }],
});

describe('guardrail patterns on RE2', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let api: ReturnType<typeof evalApi>;

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm((req) => ({ content: `echo: ${userMessage(req.messages)}` }));
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-pattern-test-key-41c9', llm.baseUrl);
  });
  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it('refuses a pattern RE2 cannot run with a 422 naming the field and the pattern, writing nothing', async () => {
    for (const pattern of ['(?=x)secret', '(a)\\1', '(?<!a)b']) {
      const refused = await api.send('post', '/api/ai-agents', 422, {
        name: 'lookaround',
        model: 'gpt-4o',
        instructions: 'x',
        settings: guardrailsWith(['TCK-\\d+', pattern]),
      });
      assert.equal(refused.error.code, 'validation_failed');
      assert.equal(refused.error.details[0].field, 'settings.guardrails.0.patterns.1');
      assert.ok(refused.error.details[0].message.endsWith(`: ${pattern}`), refused.error.details[0].message);
    }
    await api.send('get', '/api/ai-agents/lookaround', 404);

    await publishedAgent(api, 'kept', 'gpt-4o', guardrailsWith(['TCK-\\d+']));
    const refused = await api.send('patch', '/api/ai-agents/kept', 422, { settings: guardrailsWith(['(\\w+)\\s\\1']) });
    assert.equal(refused.error.details[0].field, 'settings.guardrails.0.patterns.0');
    const kept = (await api.send('get', '/api/ai-agents/kept', 200)).data;
    assert.deepEqual(kept.settings.guardrails[0].patterns, ['TCK-\\d+']);
  });

  it('keeps JavaScript-style \\u escapes and case-insensitive matching that RE2 also supports', async () => {
    await publishedAgent(api, 'accents', 'gpt-4o', guardrailsWith(['caf\\u00e9 \\d+'], 'redact'));
    const conversation = await runAgent(api, 'accents', 'one CAFÉ 42 please');
    assert.equal(conversation.final_response, 'echo: one [REDACTED] please');
  });

  it('runs (a+)+b against a long message of a’s through the worker, blocking only when a b follows', async () => {
    await publishedAgent(api, 'nested', 'gpt-4o', { ...guardrailsWith(['(a+)+b']), safe_reply: 'Refused.' });
    const long = 'a'.repeat(50_000);
    const passed = await runAgent(api, 'nested', long);
    assert.equal(passed.final_response, `echo: ${long}`);
    assert.deepEqual(passed.guardrail_events, []);
    const blocked = await runAgent(api, 'nested', `${long}b`);
    assert.equal(blocked.final_response, 'Refused.');
    assert.equal(blocked.stop_reason, 'input_blocked');
  });
});
