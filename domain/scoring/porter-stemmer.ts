/**
 * The Porter stemmer as NLTK's `PorterStemmer()` runs it by default (mode NLTK_EXTENSIONS), which is the stemmer ADK's
 * `response_match_score` uses through `rouge_score`; rule for rule, so scores match ADK's.
 */

const IRREGULAR: Readonly<Record<string, string>> = {
  sky: 'sky',
  skies: 'sky',
  dying: 'die',
  lying: 'lie',
  tying: 'tie',
  news: 'news',
  innings: 'inning',
  inning: 'inning',
  outings: 'outing',
  outing: 'outing',
  cannings: 'canning',
  canning: 'canning',
  howe: 'howe',
  proceed: 'proceed',
  exceed: 'exceed',
  succeed: 'succeed',
};

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

function isConsonant(word: string, i: number): boolean {
  if (VOWELS.has(word[i])) return false;
  if (word[i] === 'y') return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

function measure(stem: string): number {
  let count = 0;
  for (let i = 1; i < stem.length; i++) if (!isConsonant(stem, i - 1) && isConsonant(stem, i)) count++;
  return count;
}

const positive = (stem: string): boolean => measure(stem) > 0;
const overOne = (stem: string): boolean => measure(stem) > 1;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

const endsDoubleConsonant = (word: string): boolean =>
  word.length >= 2 && word.at(-1) === word.at(-2) && isConsonant(word, word.length - 1);

function endsCvc(word: string): boolean {
  const n = word.length;
  return (
    (n >= 3 &&
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      !['w', 'x', 'y'].includes(word[n - 1])) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

/** A suffix rule: the suffix ('*d' a double consonant), its replacement, and the condition on the stem before it. */
type Rule = [suffix: string, replacement: string, condition: ((stem: string) => boolean) | null];

// The first rule whose suffix ends the word decides: applied when its condition holds, else the word is kept.
function applyRules(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return !condition || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length);
      return !condition || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith('ies') && word.length === 4) return word.slice(0, -3) + 'ie';
  return applyRules(word, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith('ied')) return word.slice(0, -3) + (word.length === 4 ? 'ie' : 'i');
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? stem + 'ee' : word;
  }
  let stem: string | null = null;
  for (const suffix of ['ed', 'ing']) {
    if (word.endsWith(suffix) && containsVowel(word.slice(0, word.length - suffix.length))) {
      stem = word.slice(0, word.length - suffix.length);
      break;
    }
  }
  if (stem === null) return word;
  const last = stem.at(-1) ?? '';
  return applyRules(stem, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => !['l', 's', 'z'].includes(last)],
    ['', 'e', (base) => measure(base) === 1 && endsCvc(base)],
  ]);
}

const step1c = (word: string): string =>
  applyRules(word, [['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);

function step2(word: string): string {
  if (word.endsWith('alli') && positive(word.slice(0, -4))) return step2(word.slice(0, -4) + 'al');
  return applyRules(word, [
    ['ational', 'ate', positive],
    ['tional', 'tion', positive],
    ['enci', 'ence', positive],
    ['anci', 'ance', positive],
    ['izer', 'ize', positive],
    ['bli', 'ble', positive],
    ['alli', 'al', positive],
    ['entli', 'ent', positive],
    ['eli', 'e', positive],
    ['ousli', 'ous', positive],
    ['ization', 'ize', positive],
    ['ation', 'ate', positive],
    ['ator', 'ate', positive],
    ['alism', 'al', positive],
    ['iveness', 'ive', positive],
    ['fulness', 'ful', positive],
    ['ousness', 'ous', positive],
    ['aliti', 'al', positive],
    ['iviti', 'ive', positive],
    ['biliti', 'ble', positive],
    ['fulli', 'ful', positive],
    ['logi', 'log', () => positive(word.slice(0, -3))],
  ]);
}

const step3 = (word: string): string =>
  applyRules(word, [
    ['icate', 'ic', positive],
    ['ative', '', positive],
    ['alize', 'al', positive],
    ['iciti', 'ic', positive],
    ['ical', 'ic', positive],
    ['ful', '', positive],
    ['ness', '', positive],
  ]);

const step4 = (word: string): string =>
  applyRules(word, [
    ...['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent'].map((suffix): Rule => [
      suffix,
      '',
      overOne,
    ]),
    ['ion', '', (stem) => overOne(stem) && ['s', 't'].includes(stem.at(-1) ?? '')],
    ...['ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].map((suffix): Rule => [suffix, '', overOne]),
  ]);

function step5a(word: string): string {
  if (!word.endsWith('e')) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : word;
}

const step5b = (word: string): string => applyRules(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]]);

/** The stem of a lower-case word (NLTK's `PorterStemmer().stem`). */
export function porterStem(word: string): string {
  const stem = word.toLowerCase();
  if (Object.hasOwn(IRREGULAR, word)) return IRREGULAR[word];
  if (word.length <= 2) return stem;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(stem))))))));
}
