import assert from 'node:assert/strict';
import { publishedAgent } from '../helpers/agent-api';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { judgedSuite } from '../helpers/judged-suite';
import { lastUserMessage } from '../helpers/multi-turn-agent';
import type { ScriptedReply, ScriptedRequest } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const isSimulator = (req: ScriptedRequest): boolean =>
  req.messages[0]?.role === 'system' && (req.messages[0].content ?? '').startsWith('You are a Simulated User');

// The agent answers each message with `reply <message>` (and a `changed` tag on the message `changedOn`); the simulated
// user asks `request <n>` after the agent's n-th answer, and ends with the stop signal after `stopAfter` answers.
const script = { changedOn: '', stopAfter: 3 };
const judge = judgeReplies({});

function play(req: ScriptedRequest): ScriptedReply {
  if (isSimulator(req)) {
    const answers = (req.messages[1].content ?? '').split('\n\nagent: ').length - 1;
    const message = answers >= script.stopAfter ? '</finished>' : `request ${answers}`;
    return { content: JSON.stringify({ message }) };
  }
  if (req.body.tools === undefined) return judge(req);
  const message = lastUserMessage(req.messages);
  return { content: `reply ${message}${message === script.changedOn ? ' (changed)' : ''}` };
}

describe('simulated users (conversation scenarios in live runs)', () => {
  const suite = judgedSuite(play);

  async function setUp(tenantKey: string, simulator: Record<string, unknown>) {
    const { platform, llm } = suite;
    const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'owner'));
    await api.connect('openai', tenantKey, llm.baseUrl);
    await publishedAgent(api, 'shop', 'gpt-4o');
    const set = await api.evalSet('shop', { name: 'returns', simulator });
    const scenario = await api.addCase('shop', 'returns', {
      name: 'damaged item',
      conversation_scenario: {
        starting_prompt: 'my parcel arrived damaged',
        conversation_plan: 'ask for a return, then a refund',
        user_persona: 'novice',
      },
    });
    // Runs the set live: the scenario's conversation and the simulator calls the run made.
    const runLive = async (body: Record<string, unknown> = {}) => {
      const before = llm.requests.filter(isSimulator).length;
      const run = await api.waitForEnd('shop', (await api.trigger('shop', 'returns', { mode: 'live', ...body })).id);
      assert.equal(run.status, 'completed', run.error);
      const rows = await platform.runtime.db
        .selectFrom('agent_runs')
        .select('conversation_id')
        .where('eval_run_id', '=', run.id)
        .where('eval_case_id', '=', scenario.id)
        .execute();
      const conversations = await Promise.all(
        rows.map(async (row) => (await api.send('get', `/api/ai-agents/shop/runs/${row.conversation_id}`, 200)).data),
      );
      const [result] = (await api.results('shop', run.id)).filter((r) => r.case_id === scenario.id);
      return { run, result, conversations, simulatorCalls: llm.requests.filter(isSimulator).length - before };
    };
    return { api, set, scenario, runLive };
  }

  const transcript = (conversation: any): string[] =>
    conversation.turns.flatMap((t: any) => [`user: ${t.user_message}`, `agent: ${t.final_response}`]);

  it('plays a scenario until the stop signal, then replays it frozen, asking afresh only after a changed answer', async () => {
    Object.assign(script, { changedOn: '', stopAfter: 3 });
    const { set, runLive } = await setUp('sk-simulated-user-key-1a2b', {});
    assert.deepEqual(set.simulator, { max_turns: 8, stop_signal: '</finished>' });

    const first = await runLive();
    assert.equal(first.conversations.length, 1);
    const [played] = first.conversations;
    // The first turn is the starting prompt verbatim; the simulator wrote the next two, then stopped.
    assert.deepEqual(transcript(played), [
      'user: my parcel arrived damaged',
      'agent: reply my parcel arrived damaged',
      'user: request 1',
      'agent: reply request 1',
      'user: request 2',
      'agent: reply request 2',
    ]);
    assert.equal(first.simulatorCalls, 3);
    assert.deepEqual(
      [played.simulation.simulator_model, played.simulation.simulator_calls, played.simulation.cached_turns],
      ['gpt-4.1-mini', 3, 0],
    );
    assert.equal(played.simulation.scenario.user_persona, 'novice');
    // Counted on the case result like the judge's calls (the scripted server reports 10 + 5 tokens a call).
    assert.equal(first.result.conversation_id, played.id);
    assert.deepEqual(first.result.simulator_usage, {
      calls: 3,
      prompt_tokens: 30,
      completion_tokens: 15,
      total_tokens: 45,
    });
    // The novice persona reached the simulator's prompt.
    const asked = suite.llm.requests.filter(isSimulator).at(-1)!;
    assert.match(asked.messages[0].content ?? '', /A novice is trying to solve a problem/);

    // A re-run of the unchanged agent replays the same user turns without a simulator call.
    const frozen = await runLive();
    assert.equal(frozen.simulatorCalls, 0);
    assert.equal(frozen.result.simulator_usage.calls, 0);
    assert.deepEqual(transcript(frozen.conversations[0]), transcript(played));
    assert.deepEqual(
      [frozen.conversations[0].simulation.simulator_calls, frozen.conversations[0].simulation.cached_turns],
      [0, 3],
    );

    // The agent answers turn 1 differently: turns 0 and 1 replay, the simulator is asked afresh after turn 1 only.
    script.changedOn = 'request 1';
    const changed = await runLive();
    assert.equal(changed.simulatorCalls, 2);
    assert.deepEqual(transcript(changed.conversations[0]).slice(3, 4), ['agent: reply request 1 (changed)']);
    assert.deepEqual(
      [changed.conversations[0].simulation.simulator_calls, changed.conversations[0].simulation.cached_turns],
      [2, 1],
    );

    // no_cache asks every turn afresh; repeats ask apart (each its own seed).
    assert.equal((await runLive({ no_cache: true })).simulatorCalls, 3);
    const repeated = await runLive({ repeats: 2 });
    assert.equal(repeated.conversations.length, 2);
    assert.equal(repeated.simulatorCalls, 3, 'repeat 0 replays frozen turns, repeat 1 asks with its own seed');
  });

  it("stops at the set's max_turns when the simulated user never ends", async () => {
    Object.assign(script, { changedOn: '', stopAfter: 99 });
    const { api, runLive } = await setUp('sk-simulated-user-key-3c4d', { max_turns: 3, stop_signal: '<done/>' });
    // The dry run counts the simulator calls a live run makes at most: (max_turns − 1) per scenario case and repeat.
    const dry = await api.send('post', '/api/ai-agents/shop/eval-sets/returns/run', 200, {
      mode: 'live',
      repeats: 2,
      dry_run: true,
    });
    assert.equal(dry.data.simulator_calls, 4);
    assert.ok(dry.data.estimated_cost.prompt_tokens > 0);
    const { conversations, simulatorCalls } = await runLive();
    assert.equal(conversations[0].turns.length, 3);
    assert.equal(simulatorCalls, 2);
  });

  it('promotes a simulated conversation to a static case of turns, which runs without the simulator', async () => {
    Object.assign(script, { changedOn: '', stopAfter: 2 });
    const { api, runLive } = await setUp('sk-simulated-user-key-5e6f', {});
    const { conversations } = await runLive();
    const regression = await api.evalSet('shop', { name: 'regression' });
    const promoted = await api.promote('shop', conversations[0].id, regression.id, 'promoted return');
    assert.equal(promoted.conversation_scenario, null);
    assert.deepEqual(
      promoted.turns.map((t: any) => [t.user_message, t.expected_response]),
      [
        ['my parcel arrived damaged', 'reply my parcel arrived damaged'],
        ['request 1', 'reply request 1'],
      ],
    );
    const before = suite.llm.requests.filter(isSimulator).length;
    const run = await api.waitForEnd('shop', (await api.trigger('shop', 'regression', { mode: 'live' })).id);
    assert.equal(run.status, 'completed', run.error);
    const [result] = await api.results('shop', run.id);
    assert.equal(result.status, 'passed');
    assert.equal(suite.llm.requests.filter(isSimulator).length, before);
  });
});
