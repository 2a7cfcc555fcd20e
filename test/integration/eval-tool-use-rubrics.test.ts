import assert from 'node:assert/strict';
import { judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { servedPlatform, type ServedPlatform } from '../helpers/assay-cli';
import { startScriptedLlm, type ScriptedLlm, type ScriptedRequest } from '../helpers/scripted-llm';

interface ToolUseAsk {
  task: string;
  user_messages: string[];
  tool_calls: Array<{ turn: number; tool_name: string; tool_args: Record<string, unknown>; result: unknown }>;
  rubrics: Array<{ index: number; rubric: string }>;
}

const setPath = '/api/ai-agents/bot/eval-sets/tools';

// The scripted judge reads the trajectory it was shown: "looks up before refunding" holds when lookup_order comes
// before refund, "never refunds" when no refund was called. Any ask whose user message says "garbled" gets prose.
function judgeToolUse(req: ScriptedRequest) {
  const ask = JSON.parse(req.messages.find((m) => m.role === 'user')?.content ?? '{}') as ToolUseAsk;
  if (ask.user_messages.some((message) => message.includes('garbled'))) return { content: 'Seems fine.' };
  const names = ask.tool_calls.map((call) => call.tool_name);
  const holds = (rubric: string): boolean =>
    rubric.includes('looks up')
      ? names.indexOf('lookup_order') >= 0 && names.indexOf('lookup_order') < names.indexOf('refund')
      : !names.includes('refund');
  const verdicts = ask.rubrics.map(({ index, rubric }) => ({
    index,
    verdict: holds(rubric) ? 'YES' : 'NO',
    justification: `${holds(rubric) ? 'holds' : 'does not hold'} over ${names.join(', ')}`,
  }));
  return { content: JSON.stringify({ verdicts }) };
}

describe('rubric_based_tool_use: rubrics about the tool calls, judged over the trajectory', function () {
  this.timeout(120_000);
  let served: ServedPlatform;
  let llm: ScriptedLlm;
  const asks: ToolUseAsk[] = [];
  const judge = judgeReplies({});
  const RUBRICS = ['The agent looks up the order before refunding it', 'The agent never refunds'];

  before(async () => {
    llm = await startScriptedLlm((req) => {
      const ask = JSON.parse(req.messages.find((m) => m.role === 'user')?.content ?? '{}') as ToolUseAsk;
      if (ask.task !== 'rubric_based_tool_use') return judge(req);
      asks.push(ask);
      return judgeToolUse(req);
    });
    served = await servedPlatform(await harness(), llm, 'bot');
    const set = await served.api.evalSet('bot', { name: 'tools' });
    const add = async (name: string, message: string) => {
      const run = await served.api.importRun('bot', {
        session_input: { message },
        tool_calls: [
          { tool_name: 'lookup_order', tool_args: { id: 2 }, result: { paid: true } },
          { tool_name: 'refund', tool_args: { id: 2 }, result: { ok: true } },
        ],
        final_response: 'Refunded.',
      });
      const created = await served.api.promote('bot', run.id, set.id, name);
      return served.api.send('patch', `${setPath}/cases/${created.id}`, 200, { tool_use_rubrics: RUBRICS });
    };
    const patched = await add('refund', 'Refund order 2');
    assert.deepEqual(patched.data.tool_use_rubrics, RUBRICS);
    await add('garbled', 'Refund order 2, garbled');
  });

  after(async () => {
    await served?.close();
    await llm?.close();
  });

  it('judges each rubric YES / NO over every tool call with its result; a failing judge leaves it unscored', async () => {
    const queued = await served.api.trigger('bot', 'tools', { min_scores: { rubric_based_tool_use: 0.5 } });
    const run = await served.api.waitForEnd('bot', queued.id);
    assert.equal(run.status, 'completed', run.error);
    const byName = Object.fromEntries((await served.api.results('bot', run.id)).map((r) => [r.case_name, r]));
    const toolUse = byName.refund.criteria.rubric_based_tool_use;
    assert.equal(toolUse.score, 1 / 2);
    assert.equal(toolUse.min_score, 0.5);
    assert.deepEqual(
      toolUse.detail.approved.map((r: { rubric: string }) => r.rubric),
      [RUBRICS[0]],
    );
    assert.deepEqual(
      toolUse.detail.rejected.map((r: { rubric: string }) => r.rubric),
      [RUBRICS[1]],
    );
    assert.equal(byName.refund.status, 'passed');
    const shown = asks.find((ask) => ask.user_messages[0] === 'Refund order 2');
    assert.deepEqual(shown?.tool_calls, [
      { turn: 0, tool_name: 'lookup_order', tool_args: { id: 2 }, result: { paid: true } },
      { turn: 0, tool_name: 'refund', tool_args: { id: 2 }, result: { ok: true } },
    ]);
    assert.equal(byName.garbled.criteria.rubric_based_tool_use.unscored, true);
    assert.deepEqual(run.summary.unscored, { cases: 1, criteria: { rubric_based_tool_use: 1 } });
    assert.equal(run.summary.avg_score.rubric_based_tool_use, 1 / 2);
  });

  it("falls back to rubric_based's minimum, and keeps the rubrics in the eval-set file; a blank one is refused", async () => {
    const queued = await served.api.trigger('bot', 'tools', {});
    const run = await served.api.waitForEnd('bot', queued.id);
    const refund = (await served.api.results('bot', run.id)).find((r) => r.case_name === 'refund');
    assert.equal(refund.criteria.rubric_based_tool_use.min_score, 0.7);
    assert.equal(refund.status, 'failed');
    const exported = await served.api.send('get', `${setPath}/export`, 200);
    assert.deepEqual(exported.cases.find((c: { name: string }) => c.name === 'refund').tool_use_rubrics, RUBRICS);
    const bad = await served.api.send('patch', `${setPath}/cases/${refund.case_id}`, 422, { tool_use_rubrics: [' '] });
    assert.equal(bad.error.details[0].field, 'tool_use_rubrics.0');
  });
});
