import { notApplicable, scored, type CriterionResult, type NotApplicableDetail } from './criteria';
import { hasExpectedResponse } from './judge-verdicts';
import { porterStem } from './porter-stemmer';

/** ROUGE-1 of a response against a reference: unigram precision, recall and their F-measure. */
export interface RougeOne {
  precision: number;
  recall: number;
  fmeasure: number;
}

/**
 * `rouge_score`'s tokens with its stemmer on, as ADK's `response_match_score` takes them: lower case, every run of
 * characters other than a-z and 0-9 a separator, words of more than 3 characters Porter-stemmed.
 */
export function rougeTokens(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.map((word) => (word.length > 3 ? porterStem(word) : word)).filter((word) => /^[a-z0-9]+$/.test(word));
}

function counts(tokens: readonly string[]): Map<string, number> {
  const counted = new Map<string, number>();
  for (const token of tokens) counted.set(token, (counted.get(token) ?? 0) + 1);
  return counted;
}

/** ROUGE-1 as `rouge_score.RougeScorer(['rouge1'], use_stemmer=True).score(reference, response)` computes it. */
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
