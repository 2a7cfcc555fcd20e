import assert from 'node:assert/strict';
import { publishedAgent } from '../helpers/agent-api';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { judgedSuite } from '../helpers/judged-suite';
import { lastUserMessage } from '../helpers/multi-turn-agent';
import type { ScriptedReply, ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const isSimulator = (req: ScriptedRequest): boolean =>
  req.messages[0]?.role === 'system' && (req.messages[0].content ?? '').startsWith('You are a Simulated User');

// The simulated user asks `request <n>` after the agent's n-th answer and stops after two; the agent answers
// `reply <message>`. The judge: the plan holds; a user turn that says "request 2" breaks the persona.
const judge = judgeReplies({ userTurn: (message) => message !== 'request 2' });

function play(req: ScriptedRequest): ScriptedReply {
  if (isSimulator(req)) {
    const answers = (req.messages[1].content ?? '').split('\n\nagent: ').length - 1;
    return { content: JSON.stringify({ message: answers >= 3 ? '</finished>' : `request ${answers}` }) };
  }
  if (req.body.tools === undefined) return judge(req);
  return { content: `reply ${lastUserMessage(req.messages)}` };
}

describe('scenario criteria in a live run (the simulated user plays, then the transcript is judged)', () => {
  const suite = judgedSuite(play);

  it('scores the played conversation with task_success and persona_adherence, the persona resolved for the judge', async () => {
    const { platform, llm } = suite;
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-scenario-live-key', llm.baseUrl);
    await publishedAgent(api, 'shop', 'gpt-4o');
    await api.evalSet('shop', { name: 'returns', simulator: {} });
    const scenario = await api.addCase('shop', 'returns', {
      name: 'damaged item',
      conversation_scenario: { starting_prompt: 'my parcel arrived damaged', user_persona: 'novice' },
      rubrics: ['answers every message'],
    });
    const before = llm.requests.length;
    const run = await api.waitForEnd('shop', (await api.trigger('shop', 'returns', { mode: 'live' })).id);
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('shop', run.id);
    assert.equal(result.case_id, scenario.id);
    // Checked by hand: plan and rubric met (2 of 2); turns 0 and 1 kept to the persona, turn 2 did not: 2 of 3.
    assert.equal(result.status, 'passed', result.error);
    assert.deepEqual(
      [
        result.criteria.task_success.score,
        result.criteria.persona_adherence.score,
        result.criteria.persona_adherence.min_score,
      ],
      [1, 2 / 3, null],
    );
    assert.deepEqual(
      result.turns.map((t: any) => [t.user_message, t.actual_response, t.criteria.persona_adherence.score]),
      [
        ['my parcel arrived damaged', 'reply my parcel arrived damaged', 1],
        ['request 1', 'reply request 1', 1],
        ['request 2', 'reply request 2', 0],
      ],
    );
    const asks = llm.requests.slice(before).filter((req) => !isSimulator(req) && req.body.tools === undefined);
    const personaAsk = asks.map(judgeAsk).find((ask) => (ask.task as string) === 'persona_adherence') as any;
    assert.equal(asks.length, 2);
    assert.ok(personaAsk.scenario.persona.violation_rubrics.length > 0, 'the built-in persona reached the judge');
    assert.equal(result.judge_usage.calls, 2);
  });
});
