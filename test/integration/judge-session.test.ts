import assert from 'node:assert/strict';
import { waitFor } from '../../lib/embedded/process-utils';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { assertLogsClean } from '../helpers/logs';
import { judgedSuite } from '../helpers/judged-suite';
import { promoteCases } from '../helpers/promoted-cases';
import type { ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const OLD_KEY = 'sk-session-old-key-4b1d9e';
const NEW_KEY = 'sk-session-new-key-8c2f7a';
const judge = judgeReplies({});

describe("a run's judge session on the worker", () => {
  const suite = judgedSuite(judge);

  // One agent, set and run per test: the judge requests of that run are the ones whose message the agent's cases hold.
  async function startRun(agent: string, cases: number) {
    const api = evalApi(suite.platform.app, await createTenant(suite.platform.runtime.db, 'owner'));
    await api.agent(agent, 'gpt-4o');
    await api.connect('openai', OLD_KEY, suite.llm.baseUrl);
    const set = await api.evalSet(agent, { name: 'rotation', judge_samples: 1 });
    const messages = new Set((await promoteCases(api, agent, set.id, cases, agent)).map((c) => c.message));
    const asked = (): ScriptedRequest[] => suite.llm.requests.filter((req) => messages.has(judgeAsk(req).user_input));
    const run = await api.trigger(agent, set.id);
    return { api, run, asked };
  }

  it('uses a key rotated mid-run for the later cases of the run, with no refusal needed', async function () {
    this.timeout(120_000);
    const CASES = 60;
    // 200 ms a call at 8 at once: the 52 cases left after the rotation take about 1.3 s, the session rechecks every 0.5 s.
    suite.llm.script(judgeReplies({ delayMs: 200 }));
    try {
      const { api, run, asked } = await startRun('rotated', CASES);
      await waitFor('the first judge calls', async () => asked().length >= 8, 30_000);
      await api.connect('openai', NEW_KEY, suite.llm.baseUrl);
      const done = await api.waitForEnd('rotated', run.id);
      assert.equal(done.status, 'completed', done.error);
      assert.deepEqual(done.summary.counts, { total: CASES, passed: CASES, failed: 0, error: 0 });
      const keys = asked().map((req) => req.authorization);
      assert.equal(keys[0], `Bearer ${OLD_KEY}`);
      assert.deepEqual(new Set(keys.slice(-8)), new Set([`Bearer ${NEW_KEY}`]), 'the last cases used the new key');
      assert.equal(keys.length, CASES);
    } finally {
      suite.llm.script(judge);
    }
    assertLogsClean(suite.platform.logs, [OLD_KEY, NEW_KEY]);
  });

  it('reads the integration afresh when the provider refuses a cached key, and goes on with the rotated one', async function () {
    this.timeout(120_000);
    const CASES = 24;
    const gate: JudgeGate = judgeGate();
    let revoked = false;
    suite.llm.script(async (req) => {
      await gate.acquire();
      return revoked && req.authorization === `Bearer ${OLD_KEY}`
        ? { status: 401, body: { error: { message: 'Incorrect API key provided' } } }
        : judge(req);
    });
    try {
      const { api, run, asked } = await startRun('revoked-mid-run', CASES);
      // Eight cases (the run's concurrency) hold the old key at the judge when it is rotated and revoked.
      await waitFor('eight judge calls held at the gate', async () => asked().length >= 8, 30_000);
      await api.connect('openai', NEW_KEY, suite.llm.baseUrl);
      revoked = true;
      gate.release(Infinity);
      const done = await api.waitForEnd('revoked-mid-run', run.id);
      assert.equal(done.status, 'completed', done.error);
      assert.deepEqual(done.summary.counts, { total: CASES, passed: CASES, failed: 0, error: 0 });
      const refused = asked().filter((req) => req.authorization === `Bearer ${OLD_KEY}`);
      assert.equal(refused.length, 8, 'each held case met the refusal once, then read the new key');
      assert.equal(asked().filter((req) => req.authorization === `Bearer ${NEW_KEY}`).length, CASES);
    } finally {
      suite.llm.script(judge);
    }
    assertLogsClean(suite.platform.logs, [OLD_KEY, NEW_KEY]);
  });
});
