import assert from 'node:assert/strict';
import { porterStem } from '../../domain/scoring/porter-stemmer';
import { rougeOne, rougeTokens, scoreResponseMatch } from '../../domain/scoring/response-match';

// NLTK's PorterStemmer() (NLTK_EXTENSIONS) on the paper's examples and NLTK's own departures from it.
const STEMS: Record<string, string> = {
  caresses: 'caress',
  ponies: 'poni',
  ties: 'tie',
  agreed: 'agre',
  conflated: 'conflat',
  hopping: 'hop',
  filing: 'file',
  happy: 'happi',
  enjoy: 'enjoy',
  relational: 'relat',
  conditional: 'condit',
  generalization: 'gener',
  hopefulness: 'hope',
  electrical: 'electr',
  replacement: 'replac',
  adoption: 'adopt',
  controlling: 'control',
  probate: 'probat',
  rate: 'rate',
  cease: 'ceas',
  spied: 'spi',
  died: 'die',
  dying: 'die',
  skies: 'sky',
  proceeding: 'proceed',
};

describe('response_match_score (ROUGE-1 as ADK computes it)', () => {
  it("stems words as NLTK's Porter stemmer does", () => {
    assert.deepEqual(Object.fromEntries(Object.keys(STEMS).map((word) => [word, porterStem(word)])), STEMS);
  });

  it('tokenizes like ADK 2.x: lower case, ASCII words over 3 characters stemmed, other words whole', () => {
    assert.deepEqual(rougeTokens("It's RUNNING—fast, at 10:30! Cafés"), [
      'it',
      's',
      'run',
      'fast',
      'at',
      '10',
      '30',
      'cafés',
    ]);
  });

  it("matches rouge_score's own example", () => {
    const score = rougeOne('The quick brown fox jumps over the lazy dog', 'The quick brown dog jumps on the log.');
    assert.deepEqual(score, { precision: 0.75, recall: 2 / 3, fmeasure: 0.7058823529411765 });
  });

  it('clips repeated tokens to their count in the reference, and scores nothing in common (or nothing) 0', () => {
    assert.deepEqual(rougeOne('the cat', 'the the the'), { precision: 1 / 3, recall: 1 / 2, fmeasure: 0.4 });
    assert.equal(rougeOne('Refunds are issued', 'refund is issued').fmeasure, 2 / 3);
    assert.equal(rougeOne('apples', 'oranges').fmeasure, 0);
    assert.equal(rougeOne('', '').fmeasure, 0);
    assert.equal(rougeOne('Same words.', 'same WORDS').fmeasure, 1);
  });

  it('applies only when the minimums name it, and only to a turn with an expected response', () => {
    assert.equal(scoreResponseMatch({ expected: 'a b', actual: 'a b' }), null);
    const none = scoreResponseMatch({ expected: null, actual: 'a', minScore: 0.5 });
    assert.deepEqual([none?.applicable, none?.passed], [false, true]);
    const half = scoreResponseMatch({ expected: 'the cat sat', actual: 'the dog ran', minScore: 0.5 });
    assert.deepEqual([half?.criterion, half?.score, half?.passed], ['response_match_score', 1 / 3, false]);
  });
});
