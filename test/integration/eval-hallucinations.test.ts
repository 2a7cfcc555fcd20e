import assert from 'node:assert/strict';
import { judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { servedPlatform, type ServedPlatform } from '../helpers/assay-cli';
import { startScriptedLlm, type ScriptedLlm, type ScriptedRequest } from '../helpers/scripted-llm';

interface HallucinationsAsk {
  task: string;
  tool_results: Array<{ result: unknown }>;
  sentences: Array<{ index: number; sentence: string }>;
}

// The scripted judge labels a sentence by reading the tool results it was shown: a sentence naming a status the
// results hold is supported, one naming another status contradictory, a thank-you not needed, anything else
// unsupported. A reply about a "garbled" answer gets prose instead of JSON (no usable verdict, even after retries).
function labelSentences(req: ScriptedRequest) {
  const ask = JSON.parse(req.messages.find((m) => m.role === 'user')?.content ?? '{}') as HallucinationsAsk;
  if (ask.sentences.some(({ sentence }) => sentence.includes('garbled'))) return { content: 'They look fine to me.' };
  const results = JSON.stringify(ask.tool_results);
  const sentences = ask.sentences.map(({ index, sentence }) => {
    const status = /(shipped|lost)/.exec(sentence)?.[1];
    const label = sentence.startsWith('Thanks')
      ? 'not_needed'
      : status
        ? results.includes(status)
          ? 'supported'
          : 'contradictory'
        : 'unsupported';
    return { index, label, justification: `${label} by the tool results` };
  });
  return { content: JSON.stringify({ sentences }) };
}

describe('hallucinations: each reply sentence judged against the tool results', function () {
  this.timeout(120_000);
  let served: ServedPlatform;
  let llm: ScriptedLlm;
  const asked: string[] = [];
  const judge = judgeReplies({});

  before(async () => {
    llm = await startScriptedLlm((req) => {
      const { task } = judgeAsk(req) as { task: string };
      asked.push(task);
      return task === 'hallucinations' ? labelSentences(req) : judge(req);
    });
    served = await servedPlatform(await harness(), llm, 'bot');
    const set = await served.api.evalSet('bot', { name: 'grounded' });
    const lookup = { tool_name: 'lookup_order', tool_args: { id: 7 }, result: { status: 'shipped' } };
    const add = async (name: string, final_response: string) => {
      const run = await served.api.importRun('bot', {
        session_input: { message: `Where is order 7? (${name})` },
        tool_calls: [lookup],
        final_response,
      });
      await served.api.promote('bot', run.id, set.id, name);
    };
    await add('grounded', 'Order 7 has shipped. Thanks for waiting!');
    // Shipped is supported, lost contradicts the result, the date is nowhere: 1 of 3 judged sentences.
    await add('invented', 'Order 7 has shipped. It was lost on the way. It arrives on Monday.\nThanks!');
    await add('garbled', 'Order 7 is garbled.');
  });

  after(async () => {
    await served?.close();
    await llm?.close();
  });

  it('scores supported ÷ judged per case at its opt-in minimum, one judge call per turn, garbled → unscored', async () => {
    const queued = await served.api.trigger('bot', 'grounded', { min_scores: { hallucinations: 0.6 } });
    const run = await served.api.waitForEnd('bot', queued.id);
    assert.equal(run.status, 'completed', run.error);
    const byName = Object.fromEntries((await served.api.results('bot', run.id)).map((r) => [r.case_name, r]));

    const grounded = byName.grounded.criteria.hallucinations;
    assert.equal(grounded.score, 1);
    assert.equal(grounded.min_score, 0.6);
    assert.deepEqual(grounded.detail.counts, { supported: 1, unsupported: 0, contradictory: 0, not_needed: 1 });
    assert.equal(byName.grounded.status, 'passed');
    // Efficiency is informational: figures of the scored conversation, no pass/fail of its own.
    assert.equal(byName.grounded.efficiency.tool_calls, 1);
    assert.deepEqual(byName.grounded.efficiency.turns, [{ turn: 0, tool_calls: 1 }]);

    const invented = byName.invented.criteria.hallucinations;
    assert.equal(invented.score, 1 / 3);
    assert.deepEqual(
      invented.detail.sentences.map((s: { sentence: string; label: string }) => [s.sentence, s.label]),
      [
        ['Order 7 has shipped.', 'supported'],
        ['It was lost on the way.', 'contradictory'],
        ['It arrives on Monday.', 'unsupported'],
        ['Thanks!', 'not_needed'],
      ],
    );
    assert.equal(byName.invented.status, 'failed');

    const garbled = byName.garbled.criteria.hallucinations;
    assert.equal(garbled.unscored, true);
    assert.equal(byName.garbled.status, 'error');
    assert.deepEqual(run.summary.unscored, { cases: 1, criteria: { hallucinations: 1 } });
    assert.equal(run.summary.avg_score.hallucinations, (1 + 1 / 3) / 2);
    // Two answered cases ask once each; the garbled one is asked again after each unusable reply.
    assert.ok(asked.filter((task) => task === 'hallucinations').length >= 3);
  });

  it('stays off (not in results or the summary) unless the minimum is set', async () => {
    const queued = await served.api.trigger('bot', 'grounded', {});
    const run = await served.api.waitForEnd('bot', queued.id);
    const results = await served.api.results('bot', run.id);
    assert.ok(results.every((r) => r.criteria.hallucinations === undefined));
    assert.equal('hallucinations' in run.summary.avg_score, false);
  });
});
