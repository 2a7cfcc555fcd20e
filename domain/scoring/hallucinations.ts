import { notApplicable, scored, type CriterionError, type CriterionResult, type NotApplicableDetail } from './criteria';
import type { JudgeMessage, JudgeTask } from './judge-prompts';

/** How the judge labels one sentence of the response against the tool results and the user input. */
export const SENTENCE_LABELS = ['supported', 'unsupported', 'contradictory', 'not_needed'] as const;
export type SentenceLabel = (typeof SENTENCE_LABELS)[number];

/** One judged sentence: its index in the split response, its text, the label and why. */
export interface JudgedSentence {
  index: number;
  sentence: string;
  label: SentenceLabel;
  justification: string;
}

/** Detail of `hallucinations`: every sentence with its label, and the count of each label. */
export interface HallucinationsDetail {
  sentences: JudgedSentence[];
  counts: Record<SentenceLabel, number>;
}

/** A tool call as the judge reads it: name, arguments and what the tool answered. */
export interface GroundingCall {
  tool_name: string;
  tool_args: Record<string, unknown>;
  result?: unknown;
}

const SYSTEM = [
  'You are an evaluation judge for AI agents.',
  'Label each sentence of the agent response against the context: the user input and the results of the tools the agent called.',
  'supported: the context states or directly implies it. unsupported: it needs support and the context does not give it.',
  'contradictory: the context says otherwise. not_needed: it needs no support (a greeting, a question, an offer to help, an opinion).',
  'Reply with JSON only: {"sentences": [{"index": <sentence index>, "label": "supported" | "unsupported" | "contradictory" | "not_needed", "justification": "<one short sentence>"}]}',
  'with exactly one entry per sentence, each addressed by the index given with it.',
].join(' ');

/** The messages asking for a label per sentence (one call per turn, all its sentences together). */
export function hallucinationsPrompt(input: {
  userInput: string;
  toolCalls: readonly GroundingCall[];
  sentences: readonly string[];
}): JudgeMessage[] {
  const task: JudgeTask = 'hallucinations';
  const tool_results = input.toolCalls.map(({ tool_name, tool_args, result }) => ({
    tool_name,
    tool_args,
    result: result ?? null,
  }));
  const sentences = input.sentences.map((sentence, index) => ({ index, sentence }));
  const user = { task, user_input: input.userInput, tool_results, sentences };
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: JSON.stringify(user) },
  ];
}

type Labelled = Omit<JudgedSentence, 'sentence'>;

/**
 * Reads the judge's labels strictly: the whole reply is one JSON object whose `sentences` hold exactly one entry per
 * index 0…count−1, each with a known label; anything else is null (asked again, then unscored).
 */
export function parseSentenceLabels(content: string, count: number): Labelled[] | null {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  const entries = (value as { sentences?: unknown } | null)?.sentences;
  if (!Array.isArray(entries) || entries.length !== count) return null;
  const labelled: Labelled[] = [];
  for (const entry of entries as Array<Record<string, unknown> | null>) {
    const { index, label, justification } = entry ?? {};
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) return null;
    if (!(SENTENCE_LABELS as readonly unknown[]).includes(label)) return null;
    if (labelled.some((other) => other.index === index)) return null;
    const why = typeof justification === 'string' ? justification : '';
    labelled.push({ index, label: label as SentenceLabel, justification: why });
  }
  return labelled.sort((a, b) => a.index - b.index);
}

/**
 * Scores `hallucinations` for one response: supported ÷ (supported + unsupported + contradictory), `not_needed`
 * sentences left out; 1.0 when no sentence needed support (or the response is empty, then not applicable). A null
 * verdict (no usable reply after the retries) is an error, which makes the criterion unscored.
 */
export function scoreHallucinations(input: {
  sentences: readonly string[];
  verdict: readonly Labelled[] | null;
  minScore: number;
}): CriterionResult<HallucinationsDetail | NotApplicableDetail> | CriterionError {
  const criterion = 'hallucinations';
  if (input.sentences.length === 0) return notApplicable(criterion, input.minScore, 'the response is empty');
  if (input.verdict === null)
    return { criterion, error: 'the judge gave no usable verdict on the sentences after its retries' };
  const counts: Record<SentenceLabel, number> = { supported: 0, unsupported: 0, contradictory: 0, not_needed: 0 };
  const sentences = input.verdict.map((entry) => {
    counts[entry.label]++;
    return { ...entry, sentence: input.sentences[entry.index] };
  });
  const judged = counts.supported + counts.unsupported + counts.contradictory;
  const score = judged === 0 ? 1 : counts.supported / judged;
  return scored(criterion, score, input.minScore, { sentences, counts });
}
