import assert from 'node:assert/strict';
import { LIMITS } from '../../domain/limits';
import { SCENARIO_SKIP_REASON } from '../../domain/scoring/case-outcome';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const FIRST_EXCHANGE = 'user: Where is order 7?\nassistant: Order 7 is on its way.';

// Replies are equivalent when equal; "is polite" always holds; the case-level rubric holds when the judge was shown
// the conversation from its first exchange on.
const judge = judgeReplies({
  match: (ask) => ask.expected_response === ask.actual_response,
  rubric: (rubric, ask) => rubric === 'is polite' || ask.user_input.startsWith(FIRST_EXCHANGE),
});

const CASE = {
  name: 'order then refund',
  turns: [
    { user_message: 'Where is order 7?', expected_trajectory: [{ tool_name: 'lookup_order', tool_args: { id: 7 } }] },
    { user_message: 'When will it arrive?', expected_response: 'It arrives Friday.', rubrics: ['is polite'] },
    {
      user_message: 'Refund it',
      expected_trajectory: [{ tool_name: 'refund', tool_args: { id: 7 } }],
      expected_response: 'Refund issued.',
    },
  ],
  rubrics: ['keeps the order id straight'],
};

const turn = (user_message: string, final_response: string, calls: Array<[string, number]> = []) => ({
  user_message,
  final_response,
  tool_calls: calls.map(([tool_name, id]) => ({ tool_name, tool_args: { id } })),
});
const FIRST_TWO = [
  turn('Where is order 7?', 'Order 7 is on its way.', [['lookup_order', 7]]),
  turn('When will it arrive?', 'It arrives Friday.'),
];

describe('multi-turn eval runs', () => {
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let api: ReturnType<typeof evalApi>;
  const ids: Record<string, string> = {};

  // Runs the set offline with the case scored against `conversation`; the judge afresh each time (no cache).
  async function runAgainst(
    conversation: string,
    extra: Record<string, unknown> = {},
  ): Promise<{ run: any; multi: any; scenario: any; asked: any[] }> {
    const before = llm.requests.length;
    const queued = await api.trigger('concierge', ids.set, {
      run_selection: 'explicit',
      conversations: { [ids.case]: conversation },
      no_cache: true,
      ...extra,
    });
    const run = await api.waitForEnd('concierge', queued.id);
    assert.equal(run.status, 'completed', run.error);
    const results = await api.results('concierge', run.id);
    return {
      run,
      multi: results.find((result) => result.case_id === ids.case),
      scenario: results.find((result) => result.case_id === ids.scenario),
      asked: llm.requests.slice(before).map(judgeAsk),
    };
  }

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    llm = await startScriptedLlm(judge);
    api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', 'sk-multi-turn-key', llm.baseUrl);
    await api.agent('concierge', 'gpt-4o');
    ids.set = (await api.evalSet('concierge', { name: 'turns' })).id;
    ids.case = (await api.addCase('concierge', ids.set, CASE)).id;
    ids.scenario = (
      await api.addCase('concierge', ids.set, {
        name: 'simulated refund',
        conversation_scenario: { starting_prompt: 'I want my money back', conversation_plan: 'insist twice' },
      })
    ).id;
    const importTurns = async (turns: unknown[]): Promise<string> => (await api.importRun('concierge', { turns })).id;
    ids.wrongCall = await importTurns([...FIRST_TWO, turn('Refund it', 'Refund issued.', [['refund', 8]])]);
    ids.lastMissing = await importTurns(FIRST_TWO);
    ids.right = await importTurns([...FIRST_TWO, turn('Refund it', 'Refund issued.', [['refund', 7]])]);
  });
  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it('scores each turn, averages each criterion over its turns and names the turn that failed first', async () => {
    const { run, multi, asked } = await runAgainst(ids.wrongCall);
    assert.equal(multi.status, 'failed');
    assert.equal(multi.first_failed_turn, 2);
    assert.deepEqual(
      multi.turns.map((t: any) => [t.turn, t.status, t.passed, Object.keys(t.criteria).sort()]),
      [
        [0, 'scored', true, ['tool_trajectory_avg_score']],
        [1, 'scored', true, ['final_response_match', 'rubric_based']],
        [2, 'scored', false, ['final_response_match', 'tool_trajectory_avg_score']],
      ],
    );
    const [first, second, third] = multi.turns;
    assert.deepEqual(
      [third.user_message, third.expected_response, third.actual_response],
      ['Refund it', 'Refund issued.', 'Refund issued.'],
    );
    assert.equal(first.criteria.tool_trajectory_avg_score.score, 1);
    assert.deepEqual(third.criteria.tool_trajectory_avg_score.detail.missing, [
      { expected_index: 0, tool_name: 'refund', tool_args: { id: 7 }, args_score: 0 },
    ]);
    assert.deepEqual(third.criteria.tool_trajectory_avg_score.detail.extra, [
      { actual_index: 0, tool_name: 'refund', tool_args: { id: 8 } },
    ]);
    assert.deepEqual(
      [third.criteria.tool_trajectory_avg_score.score, third.criteria.tool_trajectory_avg_score.passed],
      [0, false],
    );
    assert.equal(third.criteria.final_response_match.score, 1);
    assert.deepEqual(
      second.criteria.rubric_based.detail.approved.map((r: any) => r.rubric),
      ['is polite'],
    );

    const { tool_trajectory_avg_score: trajectory, final_response_match: match, rubric_based: rubric } = multi.criteria;
    assert.deepEqual([trajectory.score, trajectory.passed, trajectory.applicable], [0.5, false, true]);
    assert.deepEqual(trajectory.detail, {
      turns: [
        { turn: 0, score: 1, passed: true },
        { turn: 2, score: 0, passed: false },
      ],
      first_failed_turn: 2,
    });
    assert.deepEqual([match.score, match.passed, match.detail.first_failed_turn], [1, true, null]);
    // The turn's rubric and the case-level rubric (judged once over the whole conversation) both approved.
    assert.deepEqual([rubric.score, rubric.passed], [1, true]);
    assert.deepEqual(rubric.detail.turns, [{ turn: 1, score: 1, passed: true }]);
    assert.deepEqual(
      rubric.detail.conversation.detail.approved.map((r: any) => r.rubric),
      ['keeps the order id straight'],
    );
    assert.equal(multi.criteria.safety.passed, true);

    // Judge calls: turn 1's match and rubric, turn 2's match, and one over the whole conversation.
    assert.deepEqual(
      asked.map((ask) => [ask.task, ask.user_input]),
      [
        ['final_response_match', 'When will it arrive?'],
        ['rubric_based', 'When will it arrive?'],
        ['final_response_match', 'Refund it'],
        [
          'rubric_based',
          `${FIRST_EXCHANGE}\nuser: When will it arrive?\nassistant: It arrives Friday.\nuser: Refund it`,
        ],
      ],
    );
    assert.equal(asked[3].response, 'Refund issued.');
    assert.deepEqual(run.summary.counts, { total: 2, passed: 0, failed: 1, error: 0, skipped: 1 });
    assert.equal('response_match_score' in run.summary.avg_score, false);
  });

  it("estimates a dry run's judge calls per judged turn, plus one for the case-level rubrics", async () => {
    const dry = await api.send('post', `/api/ai-agents/concierge/eval-sets/${ids.set}/run`, 200, {
      dry_run: true,
      run_selection: 'explicit',
      conversations: { [ids.case]: ids.wrongCall },
      judge_samples: 3,
    });
    // Turn 1's match and rubrics, turn 2's match, the case-level rubrics: 4 asks of 3 samples; the scenario none.
    assert.deepEqual([dry.data.cases, dry.data.judge_calls], [2, 12]);
  });

  it('scores a missing last turn 0 on every per-turn criterion, saying so', async () => {
    const { multi } = await runAgainst(ids.lastMissing);
    assert.equal(multi.status, 'failed');
    assert.equal(multi.first_failed_turn, 2);
    const missing = multi.turns[2];
    assert.deepEqual(
      [missing.status, missing.passed, missing.user_message, missing.actual_response],
      ['missing', false, 'Refund it', null],
    );
    for (const key of ['tool_trajectory_avg_score', 'final_response_match', 'rubric_based'])
      assert.deepEqual(
        [missing.criteria[key].score, missing.criteria[key].passed, missing.criteria[key].detail],
        [0, false, { reason: 'the agent gave no turn 2' }],
        key,
      );
    const { tool_trajectory_avg_score: trajectory, final_response_match: match, rubric_based: rubric } = multi.criteria;
    assert.deepEqual([trajectory.score, trajectory.passed], [0.5, false]);
    assert.deepEqual([match.score, match.passed], [0.5, false]);
    // Turn 1's rubric (1), turn 2 missing (0), the conversation's rubric (1): 2/3 < 0.7.
    assert.deepEqual([rubric.score, rubric.passed, rubric.detail.conversation.score], [2 / 3, false, 1]);
  });

  it('passes the case when every turn passes, and leaves the skipped scenario out of the pass rate', async () => {
    const { run, multi, scenario } = await runAgainst(ids.right, { min_scores: { response_match_score: 0.9 } });
    assert.equal(multi.status, 'passed');
    // ROUGE-1 where a turn expects a response: turns 1 and 2, both word for word.
    assert.deepEqual(
      multi.turns.map((t: any) => t.criteria.response_match_score?.score ?? null),
      [null, 1, 1],
    );
    assert.deepEqual(multi.criteria.response_match_score.detail.turns, [
      { turn: 1, score: 1, passed: true },
      { turn: 2, score: 1, passed: true },
    ]);
    assert.equal(run.summary.avg_score.response_match_score, 1);
    assert.equal(multi.first_failed_turn, null);
    assert.ok(multi.turns.every((t: any) => t.passed && t.status === 'scored'));
    assert.equal(scenario.status, 'skipped');
    assert.equal(scenario.passed, false);
    assert.equal(scenario.skip_reason, SCENARIO_SKIP_REASON);
    assert.equal(scenario.error, null);
    assert.deepEqual(scenario.criteria, {});
    assert.deepEqual(run.summary.counts, { total: 2, passed: 1, failed: 0, error: 0, skipped: 1 });
    assert.equal(run.summary.pass_rate, 1);
    // retry-errors has nothing to retry: a skipped case is not an error.
    const refused = await api.send('post', `/api/ai-agents/concierge/eval-runs/${run.id}/retry-errors`, 409);
    assert.equal(refused.error.code, 'no_error_cases');
  });

  it('errors a case whose judge gave no usable verdict in one turn, naming the turn', async () => {
    llm.script((req) =>
      judgeAsk(req).user_input === 'When will it arrive?' && judgeAsk(req).task === 'final_response_match'
        ? { content: 'no verdict here' }
        : judge(req),
    );
    try {
      const { multi } = await runAgainst(ids.right);
      assert.equal(multi.status, 'error');
      assert.match(multi.error, /^final_response_match: turn 1: the judge gave no usable verdict in 1 of 1 samples/);
    } finally {
      llm.script(judge);
    }
  });

  it('bounds judge calls per turn, so a judged case of five turns is not cut off at judgeCallsPerCase', async () => {
    const turns = [0, 1, 2, 3, 4].map((i) => ({
      user_message: `question ${i}`,
      expected_response: `answer ${i}`,
      rubrics: ['is polite'],
    }));
    const set = (await api.evalSet('concierge', { name: 'long' })).id;
    const longCase = (await api.addCase('concierge', set, { name: 'five turns', turns })).id;
    const conversation = await api.importRun('concierge', {
      turns: turns.map((t, i) => turn(t.user_message, `answer ${i}`)),
    });
    const queued = await api.trigger('concierge', set, {
      run_selection: 'explicit',
      conversations: { [longCase]: conversation.id },
      judge_samples: 5,
      no_cache: true,
    });
    const run = await api.waitForEnd('concierge', queued.id);
    const [result] = await api.results('concierge', run.id);
    // 5 turns × (match + rubrics) × 5 samples = 50 calls, over the 40 one turn may make.
    assert.ok(50 > LIMITS.judgeCallsPerCase);
    assert.equal(result.status, 'passed', result.error);
    assert.equal(result.judge_usage.calls, 50);
  });
});
