import assert from 'node:assert/strict';
import { isCriterionError } from '../../domain/scoring/criteria';
import {
  hallucinationsPrompt,
  parseSentenceLabels,
  scoreHallucinations,
  type HallucinationsDetail,
} from '../../domain/scoring/hallucinations';
import { splitSentences } from '../../domain/scoring/sentences';

const labels = (...values: string[]) =>
  JSON.stringify({ sentences: values.map((label, index) => ({ index, label, justification: `why ${index}` })) });

describe('hallucinations', () => {
  it('splits a response into sentences deterministically: line breaks, and . ! ? … before whitespace', () => {
    assert.deepEqual(splitSentences('Order 7 shipped on May 3. It cost 3.5 EUR! Anything else?\n- Tracking: T1\n\n'), [
      'Order 7 shipped on May 3.',
      'It cost 3.5 EUR!',
      'Anything else?',
      'Tracking: T1',
    ]);
    assert.deepEqual(splitSentences('"Done." Next… see https://x.example/a.b'), [
      '"Done."',
      'Next…',
      'see https://x.example/a.b',
    ]);
    assert.deepEqual(splitSentences('  '), []);
  });

  it('asks once with every sentence by index, the user input and each tool call with its result', () => {
    const [system, user] = hallucinationsPrompt({
      userInput: 'Where is order 7?',
      toolCalls: [{ tool_name: 'lookup', tool_args: { id: 7 }, result: { status: 'shipped' } }],
      sentences: ['It shipped.', 'Thanks!'],
    });
    assert.match(system.content, /supported.*unsupported.*contradictory.*not_needed/s);
    assert.deepEqual(JSON.parse(user.content), {
      task: 'hallucinations',
      user_input: 'Where is order 7?',
      tool_results: [{ tool_name: 'lookup', tool_args: { id: 7 }, result: { status: 'shipped' } }],
      sentences: [
        { index: 0, sentence: 'It shipped.' },
        { index: 1, sentence: 'Thanks!' },
      ],
    });
  });

  it('parses the labels strictly: one known label per index, the whole reply JSON', () => {
    assert.deepEqual(
      parseSentenceLabels(labels('supported', 'not_needed'), 2)?.map((l) => l.label),
      ['supported', 'not_needed'],
    );
    for (const bad of [
      labels('supported'),
      labels('supported', 'maybe'),
      `Sure! ${labels('supported', 'supported')}`,
      JSON.stringify({
        sentences: [
          { index: 0, label: 'supported' },
          { index: 0, label: 'supported' },
        ],
      }),
      JSON.stringify({
        sentences: [
          { index: 0, label: 'supported' },
          { index: 2, label: 'supported' },
        ],
      }),
      'null',
    ])
      assert.equal(parseSentenceLabels(bad, 2), null, bad);
  });

  it('scores supported ÷ judged, not_needed left out; no usable verdict is an error (unscored)', () => {
    const sentences = ['a', 'b', 'c', 'd', 'e'];
    const verdict = parseSentenceLabels(
      labels('supported', 'unsupported', 'contradictory', 'not_needed', 'supported'),
      5,
    );
    const result = scoreHallucinations({ sentences, verdict, minScore: 0.5 });
    assert.ok(!isCriterionError(result));
    assert.equal(result.score, 2 / 4);
    assert.equal(result.passed, true);
    const detail = result.detail as HallucinationsDetail;
    assert.deepEqual(detail.counts, { supported: 2, unsupported: 1, contradictory: 1, not_needed: 1 });
    assert.deepEqual(detail.sentences[2], { index: 2, sentence: 'c', label: 'contradictory', justification: 'why 2' });
    const onlyChat = scoreHallucinations({
      sentences: ['hi'],
      verdict: parseSentenceLabels(labels('not_needed'), 1),
      minScore: 1,
    });
    assert.equal(!isCriterionError(onlyChat) && onlyChat.score, 1);
    assert.deepEqual(scoreHallucinations({ sentences, verdict: null, minScore: 0.5 }), {
      criterion: 'hallucinations',
      error: 'the judge gave no usable verdict on the sentences after its retries',
    });
    const empty = scoreHallucinations({ sentences: [], verdict: null, minScore: 0.5 });
    assert.equal(!isCriterionError(empty) && empty.applicable, false);
  });
});
