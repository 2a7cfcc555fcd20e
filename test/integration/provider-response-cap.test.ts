import assert from 'node:assert/strict';
import { publishedAgent, userMessage } from '../helpers/agent-api';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { judgedSuite } from '../helpers/judged-suite';
import { promoteCases } from '../helpers/promoted-cases';
import type { ScriptedReply, ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

// Far over the cap (`LIMITS.providerResponseBytes`), streamed: a reader that stops at the cap leaves most unwritten.
const HUGE = 32 * 1024 * 1024;
const judge = judgeReplies({});

// The agent's model answers "huge answer" and the judge answers any case of a "huge" set with HUGE bytes.
function script(req: ScriptedRequest): ScriptedReply {
  const message = userMessage(req.messages);
  if (message === 'huge answer') return { contentBytes: HUGE };
  if (!message.startsWith('{')) return { content: 'ok' };
  return judgeAsk(req).user_input === 'huge 0' ? { contentBytes: HUGE } : judge(req);
}

describe('provider answers are size-capped', () => {
  const suite = judgedSuite(script);

  const workspace = async () => {
    const api = evalApi(suite.platform.app, await createTenant(suite.platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-response-cap-key-2b7e', suite.llm.baseUrl);
    return api;
  };

  // A set of `count` promoted cases judged once each on their expected response.
  const judgedSet = async (api: Awaited<ReturnType<typeof workspace>>, agent: string, prefix: string) => {
    await api.agent(agent, 'gpt-4o');
    const set = await api.evalSet(agent, { name: 'capped', judge_samples: 1 });
    const cases = await promoteCases(api, agent, set.id, 3, prefix);
    return { set, cases };
  };

  it('ends a judged case whose answer is over providerResponseBytes as error naming response_too_large, reading no further, while other cases and runs are scored', async function () {
    this.timeout(120_000);
    const [api, other] = [await workspace(), await workspace()];
    const { set, cases } = await judgedSet(api, 'capped', 'huge');
    const neighbour = await judgedSet(other, 'neighbour', 'calm');
    const streamedBefore = suite.llm.streamedBytes();
    const [run, calm] = await Promise.all([
      api.trigger('capped', set.id).then((r) => api.waitForEnd('capped', r.id, 90_000)),
      other.trigger('neighbour', neighbour.set.id).then((r) => other.waitForEnd('neighbour', r.id, 90_000)),
    ]);

    assert.equal(run.status, 'completed', run.error);
    const results = new Map((await api.results('capped', run.id)).map((r) => [r.case_id, r]));
    const huge = results.get(cases[0].id);
    assert.equal(huge.status, 'error');
    assert.match(huge.error, /response_too_large/);
    assert.match(huge.error, /providerResponseBytes/);
    for (const c of cases.slice(1)) assert.equal(results.get(c.id).status, 'passed', results.get(c.id).error);
    const asked = suite.llm.requests.filter((req) => req.messages.some((m) => m.content?.includes('"huge 0"')));
    assert.equal(asked.length, 1, 'an answer over the cap is not asked again');
    const streamed = suite.llm.streamedBytes() - streamedBefore;
    assert.ok(streamed < HUGE / 2, `reading stopped near the cap: ${streamed} of ${HUGE} bytes were written`);

    assert.equal(calm.status, 'completed', calm.error);
    assert.deepEqual(calm.summary.counts, { total: 3, passed: 3, failed: 0, error: 0 });
  });

  it('ends a live case whose agent model answers over providerResponseBytes as error naming response_too_large, and runs the next case', async function () {
    this.timeout(120_000);
    const api = await workspace();
    await publishedAgent(api, 'talker', 'gpt-4o');
    await api.evalSet('talker', { name: 'live' });
    const huge = await api.addCase('talker', 'live', {
      name: 'huge',
      session_input: { message: 'huge answer' },
      expected_trajectory: [],
    });
    const fine = await api.addCase('talker', 'live', {
      name: 'fine',
      session_input: { message: 'a short one' },
      expected_trajectory: [],
    });
    const run = await api.waitForEnd('talker', (await api.trigger('talker', 'live', { mode: 'live' })).id, 90_000);
    assert.equal(run.status, 'completed', run.error);
    const results = new Map((await api.results('talker', run.id)).map((r) => [r.case_id, r]));
    assert.equal(results.get(huge.id).status, 'error');
    assert.match(results.get(huge.id).error, /response_too_large/);
    assert.match(results.get(huge.id).error, /providerResponseBytes/);
    assert.equal(results.get(fine.id).status, 'passed', results.get(fine.id).error);
  });
});
