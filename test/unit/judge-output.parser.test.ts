import assert from 'node:assert/strict';
import { parseMatchVerdict, parseRubricVerdicts } from '../../domain/scoring/judge-output.parser';

const twoVerdicts = {
  verdicts: [
    { index: 0, verdict: 'YES', justification: 'greets the user' },
    { index: 1, verdict: 'NO', justification: 'no price given' },
  ],
};
const expectedTwo = [
  { index: 0, verdict: 'YES', justification: 'greets the user' },
  { index: 1, verdict: 'NO', justification: 'no price given' },
];

describe('judge output parser', () => {
  describe('parseRubricVerdicts', () => {
    it('reads plain JSON text and an already parsed object alike', () => {
      assert.deepEqual(parseRubricVerdicts(JSON.stringify(twoVerdicts), 2), expectedTwo);
      assert.deepEqual(parseRubricVerdicts(twoVerdicts, 2), expectedTwo);
    });

    it('reads JSON inside a ```json fence with prose around it', () => {
      const fenced = '```json\n' + JSON.stringify(twoVerdicts, null, 2) + '\n```';
      const text = `Here is my assessment:\n${fenced}\nHope it helps.`;
      assert.deepEqual(parseRubricVerdicts(text, 2), expectedTwo);
    });

    it('reads a bare JSON array embedded in prose, even when the prose has braces of its own', () => {
      const text = `Rubrics {as asked}: ${JSON.stringify(twoVerdicts.verdicts)} -- done`;
      assert.deepEqual(parseRubricVerdicts(text, 2), expectedTwo);
    });

    it('orders verdicts by index, not by the order the judge wrote them', () => {
      const reversed = { verdicts: [...twoVerdicts.verdicts].reverse() };
      assert.deepEqual(parseRubricVerdicts(reversed, 2), expectedTwo);
    });

    it('accepts lower-case verdicts and maps a complete 1-based numbering to 0-based indices', () => {
      const text = JSON.stringify([
        { index: 1, verdict: 'yes', justification: 'a' },
        { index: 2, verdict: 'no', justification: 'b' },
      ]);
      assert.deepEqual(parseRubricVerdicts(text, 2), [
        { index: 0, verdict: 'YES', justification: 'a' },
        { index: 1, verdict: 'NO', justification: 'b' },
      ]);
    });

    it('returns null when a rubric index is missing or duplicated', () => {
      const duplicated = { verdicts: [twoVerdicts.verdicts[0], twoVerdicts.verdicts[0]] };
      assert.equal(parseRubricVerdicts({ verdicts: [twoVerdicts.verdicts[0]] }, 2), null);
      assert.equal(parseRubricVerdicts(duplicated, 2), null);
    });

    it('returns null for an out-of-range index or a verdict other than yes or no', () => {
      const outOfRange = { verdicts: [twoVerdicts.verdicts[0], { index: 5, verdict: 'NO', justification: '' }] };
      const maybe = { verdicts: [twoVerdicts.verdicts[0], { index: 1, verdict: 'MAYBE', justification: '' }] };
      assert.equal(parseRubricVerdicts(outOfRange, 2), null);
      assert.equal(parseRubricVerdicts(maybe, 2), null);
    });

    it('never matches verdicts back by echoed rubric text', () => {
      const echoed = { verdicts: [{ rubric: 'greets the user', verdict: 'YES', justification: 'ok' }] };
      assert.equal(parseRubricVerdicts(echoed, 1), null);
    });

    it('returns null for prose without JSON and for truncated JSON', () => {
      assert.equal(parseRubricVerdicts('All rubrics are satisfied.', 2), null);
      assert.equal(parseRubricVerdicts('{"verdicts": [{"index": 0, "verdict": "YES"', 1), null);
    });
  });

  describe('parseMatchVerdict', () => {
    it('reads an equivalence flag with its justification from fenced JSON', () => {
      const text = 'Sure.\n```json\n{"equivalent": false, "justification": "different price"}\n```';
      assert.deepEqual(parseMatchVerdict(text), { equivalent: false, justification: 'different price' });
    });

    it('reads a YES or NO verdict field and a bare YES or NO reply', () => {
      assert.deepEqual(parseMatchVerdict({ verdict: 'YES', reason: 'same meaning' }), {
        equivalent: true,
        justification: 'same meaning',
      });
      assert.deepEqual(parseMatchVerdict('No.'), { equivalent: false, justification: '' });
    });

    it('returns null when the reply holds no usable verdict', () => {
      assert.equal(parseMatchVerdict('They are somewhat similar.'), null);
      assert.equal(parseMatchVerdict('{"verdict": "PARTIAL"}'), null);
      assert.equal(parseMatchVerdict({ score: 0.9 }), null);
    });
  });
});
