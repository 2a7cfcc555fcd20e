import assert from 'node:assert/strict';
import { runAssay, servedPlatform, type ServedPlatform } from '../helpers/assay-cli';
import { judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';

// The judge answers every ask but those about a "mumble" reply, which get no JSON verdict (after the retries too).
const MUMBLE = 'mumble';

describe('unscored criteria: a judge failure is neither pass nor fail, counted apart and bounded by the gate', function () {
  this.timeout(180_000);
  let served: ServedPlatform;
  let llm: ScriptedLlm;
  const judge = judgeReplies({});
  const cli = (args: string[]) => runAssay(['agent:eval', 'bot', 'judged', '--min-pass-rate=0', ...args], served.env);

  before(async () => {
    llm = await startScriptedLlm((req) =>
      judgeAsk(req).actual_response === MUMBLE ? { content: 'Well, it depends.' } : judge(req),
    );
    served = await servedPlatform(await harness(), llm, 'bot');
    const { api } = served;
    const set = await api.evalSet('bot', { name: 'judged' });
    const add = async (name: string, reply: string, patch?: Record<string, unknown>) => {
      const run = await api.importRun('bot', { session_input: { message: `ask ${name}` }, final_response: reply });
      const created = await api.promote('bot', run.id, set.id, name);
      if (patch) await api.send('patch', `/api/ai-agents/bot/eval-sets/judged/cases/${created.id}`, 200, patch);
    };
    await add('judged', 'All done.');
    await add('mumbled', MUMBLE);
    // The agent never called the tool the case expects: it fails on that whatever the judge says.
    await add('mumbled and wrong', MUMBLE, { expected_trajectory: [{ tool_name: 'lookup', tool_args: {} }] });
  });

  after(async () => {
    await served?.close();
    await llm?.close();
  });

  it('marks the criterion unscored, decides the case on the rest, and counts it in the summary', async () => {
    const queued = await served.api.trigger('bot', 'judged', {});
    const run = await served.api.waitForEnd('bot', queued.id);
    assert.equal(run.status, 'completed', run.error);
    const byName = Object.fromEntries((await served.api.results('bot', run.id)).map((r) => [r.case_name, r]));
    assert.equal(byName.judged.status, 'passed');
    assert.equal(byName.judged.criteria.final_response_match.unscored, undefined);
    for (const name of ['mumbled', 'mumbled and wrong']) {
      const entry = byName[name].criteria.final_response_match;
      assert.equal(entry.unscored, true, name);
      assert.equal(entry.applicable, false, name);
      assert.match(entry.detail.reason, /the judge gave no usable verdict/, name);
    }
    // Undecided (only the judge could decide it) is an error naming the criterion; a failed trajectory still fails.
    assert.equal(byName.mumbled.status, 'error');
    assert.match(byName.mumbled.error, /^final_response_match: the judge gave no usable verdict/);
    assert.equal(byName['mumbled and wrong'].status, 'failed');
    assert.deepEqual(run.summary.unscored, { cases: 2, criteria: { final_response_match: 2 } });
    assert.equal(run.summary.avg_score.final_response_match, 1, 'unscored entries are not zeros in the mean');
  });

  it('agent:eval --max-unscored bounds the unscored cases: a count or a share, exit 1 over it', async () => {
    const over = await cli(['--max-unscored', '1']);
    assert.equal(over.code, 1, over.stderr);
    assert.match(over.stdout, /unscored: 2 cases \(the judge gave no usable verdict: final_response_match 2\)/);
    assert.match(over.stdout, /FAILED: 2 cases left a criterion unscored; --max-unscored allows 1/);
    const within = await cli(['--max-unscored', '2']);
    assert.equal(within.code, 0, within.stdout + within.stderr);
    assert.match(within.stdout, /PASSED/);
    assert.equal((await cli(['--max-unscored', '67%'])).code, 0, '67% of 3 cases allows 2');
    assert.equal((await cli(['--max-unscored', '50%'])).code, 1, '50% of 3 cases allows 1');
    assert.equal((await cli([])).code, 0, 'not bounded without the flag');
    const bad = await cli(['--max-unscored', 'some']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-unscored must be a whole number of cases or a percentage/);
  });
});
