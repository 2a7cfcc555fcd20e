import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SCENARIO_SKIP_REASON } from '../../domain/scoring/case-outcome';
import { PLAN_FULFILLED } from '../../domain/scoring/scenario-prompts';
import { ADK_FIXTURES_DIR } from '../helpers/adk-files';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm, type ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

interface ScenarioAsk {
  task: string;
  conversation: Array<{ turn: number; user: string; agent: string }>;
  criteria?: Array<{ index: number; criterion: string }>;
  items?: Array<{ index: number; user_turn: number }>;
}

const ask = (req: ScriptedRequest): ScenarioAsk =>
  JSON.parse(req.messages.find((m) => m.role === 'user')?.content ?? '{}') as ScenarioAsk;

// task_success: the plan holds when the agent's last reply confirms it; the rubric when some reply offers a
// replacement. persona_adherence: a user turn breaks the persona when it asks about prices.
function judge(req: ScriptedRequest): { content: string } {
  const { task, conversation, criteria = [], items = [] } = ask(req);
  const verdict = (index: number, yes: boolean) => ({ index, verdict: yes ? 'YES' : 'NO', justification: `${index}` });
  if (task === 'task_success') {
    const holds = (criterion: string) =>
      criterion === PLAN_FULFILLED
        ? /sent/i.test(conversation[conversation.length - 1].agent)
        : conversation.some((turn) => turn.agent.includes('replacement'));
    return { content: JSON.stringify({ verdicts: criteria.map((c) => verdict(c.index, holds(c.criterion))) }) };
  }
  if (task === 'persona_adherence') {
    const kept = (turn: number) => !/price/i.test(conversation[turn].user);
    return { content: JSON.stringify({ verdicts: items.map((item) => verdict(item.index, kept(item.user_turn))) }) };
  }
  return { content: 'not a scenario ask' };
}

const ADK_SCENARIO_FILE = 'google-adk-python/conversation_scenario.test.json';

const turn = (user_message: string, final_response: string) => ({ user_message, final_response, tool_calls: [] });

describe('scenario criteria (offline, against a conversation of turns)', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let api: ReturnType<typeof evalApi>;
  const ids: Record<string, string> = {};

  async function scoreAgainst(conversation: string | null, extra: Record<string, unknown> = {}) {
    const before = llm.requests.length;
    const conversations = conversation ? { [ids.case]: conversation } : { [ids.other]: ids.plain };
    const queued = await api.trigger('shop', ids.set, {
      run_selection: 'explicit',
      conversations,
      no_cache: true,
      ...extra,
    });
    const run = await api.waitForEnd('shop', queued.id);
    assert.equal(run.status, 'completed', run.error);
    const results = await api.results('shop', run.id);
    const scenario = results.find((result) => result.case_id === ids.case);
    return { run, scenario, asked: llm.requests.slice(before).map((req) => ask(req).task) };
  }

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(judge);
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-scenario-key', llm.baseUrl);
    await api.agent('shop', 'gpt-4o');
    ids.set = (await api.evalSet('shop', { name: 'scenarios' })).id;
    ids.case = (
      await api.addCase('shop', ids.set, {
        name: 'broken blender',
        conversation_scenario: {
          starting_prompt: 'My blender arrived broken',
          conversation_plan: 'ask for a fix; accept a replacement',
          user_persona: { description: 'a novice', behaviours: ['short'], violation_rubrics: ['never asks prices'] },
        },
        rubrics: ['offers a replacement'],
      })
    ).id;
    ids.other = (await api.addCase('shop', ids.set, { name: 'one turn', session_input: { message: 'hi' } })).id;
    const importTurns = async (turns: unknown[]): Promise<string> => (await api.importRun('shop', { turns })).id;
    ids.plain = await importTurns([turn('hi', 'hello')]);
    ids.good = await importTurns([
      turn('My blender arrived broken', 'Sorry! Shall I send a replacement?'),
      turn('What is the price of a new one?', 'It is 40 euros.'),
      turn('Send the replacement', 'Replacement sent.'),
    ]);
    ids.unhelpful = await importTurns([
      turn('My blender arrived broken', 'Please read the manual.'),
      turn('It is broken', 'Try again later.'),
    ]);
  });
  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it('judges the whole transcript once for task_success and each user turn for persona_adherence', async () => {
    const { run, scenario, asked } = await scoreAgainst(ids.good);
    assert.deepEqual(asked.sort(), ['persona_adherence', 'task_success']);
    assert.equal(scenario.status, 'passed');
    // Plan met, the rubric met: 2 of 2. Turn 1 asks about prices: 2 of 3 turns kept to the persona, not gating.
    const { task_success: task, persona_adherence: persona } = scenario.criteria;
    assert.deepEqual([task.score, task.min_score, task.passed], [1, 0.7, true]);
    assert.deepEqual(
      task.detail.approved.map((item: any) => item.rubric),
      [PLAN_FULFILLED, 'offers a replacement'],
    );
    assert.deepEqual([persona.score, persona.min_score, persona.passed], [2 / 3, null, true]);
    assert.deepEqual(
      scenario.turns.map((t: any) => [t.user_message, t.actual_response, t.criteria.persona_adherence.score]),
      [
        ['My blender arrived broken', 'Sorry! Shall I send a replacement?', 1],
        ['What is the price of a new one?', 'It is 40 euros.', 0],
        ['Send the replacement', 'Replacement sent.', 1],
      ],
    );
    assert.equal(scenario.first_failed_turn, null);
    assert.deepEqual([run.summary.avg_score.task_success, run.summary.avg_score.persona_adherence], [1, 2 / 3]);
  });

  it('fails the case on persona_adherence only once min_scores names it, naming the turn', async () => {
    const { scenario } = await scoreAgainst(ids.good, { min_scores: { persona_adherence: 0.8 } });
    assert.equal(scenario.status, 'failed');
    const persona = scenario.criteria.persona_adherence;
    assert.deepEqual([persona.score, persona.min_score, persona.passed], [2 / 3, 0.8, false]);
    assert.equal(scenario.first_failed_turn, 1);
    assert.equal(scenario.criteria.task_success.passed, true);
  });

  it('fails task_success when the plan and the rubric are not met', async () => {
    const { scenario } = await scoreAgainst(ids.unhelpful, { min_scores: { task_success: 0.5 } });
    assert.equal(scenario.status, 'failed');
    const task = scenario.criteria.task_success;
    assert.deepEqual([task.score, task.min_score, task.passed], [0, 0.5, false]);
    assert.equal(scenario.criteria.persona_adherence.score, 1);
  });

  it('scores a scenario case of an imported ADK file as written, in a set whose only judged case it is', async () => {
    const adkSet = (await api.evalSet('shop', { name: 'adk scenarios' })).id;
    const setPath = `/api/ai-agents/shop/eval-sets/${adkSet}`;
    const file = JSON.parse(fs.readFileSync(path.join(ADK_FIXTURES_DIR, ADK_SCENARIO_FILE), 'utf8'));
    await api.send('post', `${setPath}/cases/import`, 200, file);
    const [imported] = (await api.send('get', `${setPath}/cases`, 200)).data;
    assert.equal(imported.name, 'CS-1');
    const queued = await api.trigger('shop', adkSet, {
      run_selection: 'explicit',
      conversations: { [imported.id]: ids.good },
      no_cache: true,
    });
    const run = await api.waitForEnd('shop', queued.id);
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('shop', run.id);
    // No rubrics: task_success is the plan alone (the last reply confirms it); the persona verdicts as above.
    assert.equal(result.status, 'passed', result.error);
    assert.deepEqual([result.criteria.task_success.score, result.criteria.task_success.detail.approved.length], [1, 1]);
    assert.equal(result.criteria.persona_adherence.score, 2 / 3);
  });

  it("estimates a dry run's judge calls: a scenario case with a conversation asks twice per sample", async () => {
    const dry = await api.send('post', `/api/ai-agents/shop/eval-sets/${ids.set}/run`, 200, {
      dry_run: true,
      run_selection: 'explicit',
      conversations: { [ids.case]: ids.good },
      judge_samples: 3,
    });
    assert.deepEqual([dry.data.cases, dry.data.judge_calls], [2, 6]);
    assert.ok(dry.data.estimated_cost.prompt_tokens > 0);
  });

  it('still skips a scenario case that has no conversation, asking the judge nothing for it', async () => {
    const { scenario, asked } = await scoreAgainst(null);
    assert.deepEqual([scenario.status, scenario.skip_reason], ['skipped', SCENARIO_SKIP_REASON]);
    assert.deepEqual(asked, []);
  });
});
