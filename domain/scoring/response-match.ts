import { notApplicable, scored, type CriterionResult, type NotApplicableDetail } from './criteria';
import { hasExpectedResponse } from './judge-verdicts';
import { porterStem } from './porter-stemmer';

/** ROUGE-1 of a response against a reference: unigram precision, recall and their F-measure. */
export interface RougeOne {
  precision: number;
  recall: number;
  fmeasure: number;
}

const CJK = /[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff\uac00-\ud7af]/u;
const NON_SPACED = /[\u0e00-\u0eff\u1780-\u17ff\u1000-\u109f]/u;
const MARK = /\p{M}/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

// As ADK's `_UnicodeAwareTokenizer`: CJK characters are words of their own, a non-spaced script (Thai, Lao, Khmer,
// Myanmar) splits before each base character, any other letter, digit or mark belongs to a word.
function spacedChar(char: string): string {
  if (CJK.test(char)) return ` ${char} `;
  if (NON_SPACED.test(char)) return MARK.test(char) ? char : ` ${char}`;
  return WORD_CHAR.test(char) ? char : ' ';
}

// rouge_score's own tokenizer for an ASCII word: words of more than 3 characters Porter-stemmed.
const asciiTokens = (word: string): string[] =>
  [word.length > 3 ? porterStem(word) : word].filter((token) => /^[a-z0-9]+$/.test(token));

/**
 * The tokens ADK 2.x's `response_match_score` scores: NFKC, lower case, words split as `spacedChar` says; an ASCII
 * word goes through `rouge_score`'s tokenizer with its stemmer on, any other word stays whole.
 */
export function rougeTokens(text: string): string[] {
  const spaced = [...text.normalize('NFKC').toLowerCase()].map(spacedChar).join('');
  const words = spaced.split(/\s+/).filter(Boolean);
  return words.flatMap((word) => (/^[\x00-\x7f]*$/.test(word) ? asciiTokens(word) : [word]));
}

function counts(tokens: readonly string[]): Map<string, number> {
  const counted = new Map<string, number>();
  for (const token of tokens) counted.set(token, (counted.get(token) ?? 0) + 1);
  return counted;
}

/** ROUGE-1 as ADK 2.x's `_calculate_rouge_1_scores(response, reference)` computes it. */
export function rougeOne(reference: string, response: string): RougeOne {
  const [expected, actual] = [counts(rougeTokens(reference)), counts(rougeTokens(response))];
  let overlap = 0;
  for (const [token, count] of expected) overlap += Math.min(count, actual.get(token) ?? 0);
  const total = (counted: Map<string, number>): number => [...counted.values()].reduce((sum, n) => sum + n, 0);
  const precision = overlap / Math.max(total(actual), 1);
  const recall = overlap / Math.max(total(expected), 1);
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure };
}

/** Detail of `response_match_score`: ROUGE-1 precision and recall behind the F-measure scored. */
export type ResponseMatchDetail = Omit<RougeOne, 'fmeasure'>;

/** Input of `scoreResponseMatch`: absent `minScore` means the run did not ask for the criterion. */
export interface ResponseMatchInput {
  expected?: string | null;
  actual: string;
  minScore?: number;
}

/**
 * Scores `response_match_score` (ADK's deterministic ROUGE-1 F-measure of the reply against the expected response)
 * when the resolved minimums name it and the turn has an expected response; null when the run did not ask for it.
 */
export function scoreResponseMatch(
  input: ResponseMatchInput,
): CriterionResult<ResponseMatchDetail | NotApplicableDetail> | null {
  if (input.minScore === undefined) return null;
  if (!hasExpectedResponse(input.expected)) {
    return notApplicable('response_match_score', input.minScore, 'the case has no expected_final_response');
  }
  const { precision, recall, fmeasure } = rougeOne(input.expected, input.actual);
  return scored('response_match_score', fmeasure, input.minScore, { precision, recall });
}
