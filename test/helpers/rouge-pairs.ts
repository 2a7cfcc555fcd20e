import type { AdkRougePair } from './adk-oracle';
import { seededRandom } from './trajectory-pairs';

// Word families whose members stem alike, or apart (a 3-letter word is not stemmed, so `try` misses `tries`): the
// candidate swaps a word for a sibling now and then.
const FAMILIES = [
  'run runs ran running runner',
  'generalization generalize generalizations general generally',
  'caresses caress caressing',
  'ponies pony',
  'try tries trying tried',
  'dry drying dried cry cries crying fly flies flying spy spies',
  'tie ties tying die dies dying lie lies lying',
  'sky skies news innings inning outings outing',
  'meeting meetings meet organization organizations organize organized',
  'happy happily happiness hope hopeful hopefulness hoping hopping hopped',
  'agreed agreement agree feed fed feeding',
].map((family) => family.split(' '));
// Porter's hard cases (NLTK's own test words among them), irregular forms, and short words (only words of more than
// 3 letters are stemmed).
const ENGLISH = [
  ...FAMILIES.flat(),
  ...(
    'cats plastered motoring sing conflated troubled sized tanned falling hissing fizzed failing filing ' +
    'howe proceed exceed succeed relational conditional rational valency digitizer conformably radically ' +
    'differently vilely analogously vietnamization predication operator feudalism decisiveness callousness ' +
    'formality sensitivity triplicate formative formalize electricity electrical goodness revival allowance ' +
    'inference airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption ' +
    'communism activate angularity homologous effective bowdlerize probate rate cease controlling rolling ' +
    'generously university the a is of and yes goes does eyes sses ss s y by was has its oed bled'
  ).split(' '),
];
const NUMBERS = ['42', '3.14', '1,000', '2nd', 'v2', '0', '2026-11-27', '1e9'];
// Letters outside a-z: separators for ROUGE, except those whose lower case is ASCII (Kelvin sign K, dotted İ).
const UNICODE = ['café', 'naïve', 'straße', 'ΩMEGA', '日本語', 'İstanbul', '\u212Aelvin', 'résumé', 'ﬁnal', 'Ünïcödé'];
const SEPARATORS = [' ', ' ', ' ', ', ', '. ', '! ', '? ', '; ', ':', "'", '"', ' - ', '—', '(', ')', '/', '\n', '\t'];

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

function word(random: Random): string {
  const roll = random();
  const base = roll < 0.75 ? pick(random, ENGLISH) : roll < 0.88 ? pick(random, NUMBERS) : pick(random, UNICODE);
  const casing = random();
  if (casing < 0.1) return base.toUpperCase();
  if (casing < 0.25) return base.charAt(0).toUpperCase() + base.slice(1);
  return base;
}

const text = (random: Random, words: readonly string[]): string =>
  words.map((one, k) => (k === 0 ? one : pick(random, SEPARATORS) + one)).join('');

/** Now and then another member of the word's family, in the word's case. */
function sibling(random: Random, one: string): string {
  const family = FAMILIES.find((members) => members.includes(one.toLowerCase()));
  if (family === undefined || random() < 0.5) return one;
  const other = pick(random, family);
  return one === one.toLowerCase() ? other : other.toUpperCase();
}

/** The candidate: the reference's words kept, reordered, dropped, added or re-cased, in fresh punctuation. */
function mutate(random: Random, words: readonly string[]): string[] {
  const out = words.filter(() => random() > 0.25).map((one) => (random() < 0.15 ? word(random) : sibling(random, one)));
  while (random() < 0.4) out.splice(Math.floor(random() * (out.length + 1)), 0, word(random));
  if (random() < 0.3) out.reverse();
  return out.map((one) => (random() < 0.1 ? one.toUpperCase() : one));
}

/** `count` seeded reference/candidate pairs; some empty on one or both sides, some whole-text matches. */
export function rougePairs(seed: number, count: number): AdkRougePair[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const words = Array.from({ length: Math.floor(random() * 12) }, () => word(random));
    const reference = text(random, words);
    const roll = random();
    if (roll < 0.05) return { reference, candidate: '' };
    if (roll < 0.1) return { reference: '', candidate: reference };
    if (roll < 0.2) return { reference, candidate: reference };
    return { reference, candidate: text(random, mutate(random, words)) };
  });
}
