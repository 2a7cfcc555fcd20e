import {
  notApplicable,
  reportedOnly,
  scored,
  type CriterionError,
  type CriterionKey,
  type CriterionResult,
  type NotApplicableDetail,
} from './criteria';
import type { MatchVerdict, RubricVerdict } from './judge-output.parser';

/** Detail of `final_response_match`: how many judge samples said the responses are equivalent, and why. */
export interface FinalResponseDetail {
  yes_votes: number;
  samples: number;
  justifications: string[];
}

/** One rubric with the majority verdict's justification and the vote count behind it. */
export interface JudgedRubric {
  index: number;
  rubric: string;
  justification: string;
  yes_votes: number;
  samples: number;
}

/** Detail of `rubric_based`: approved and rejected rubrics, each with the judge's justification. */
export interface RubricDetail {
  approved: JudgedRubric[];
  rejected: JudgedRubric[];
}

/** Input of `scoreFinalResponse`; a null sample is a judge call that gave no usable verdict after its retries. */
export interface FinalResponseInput {
  expected?: string | null;
  samples: ReadonlyArray<MatchVerdict | null>;
  minScore: number;
}

/** Input of `scoreRubrics`; a null sample is a judge call that gave no usable verdict after its retries. */
export interface RubricsInput {
  rubrics?: readonly string[] | null;
  samples: ReadonlyArray<readonly RubricVerdict[] | null>;
  minScore: number;
}

/** True when the case sets an expected final response, so `final_response_match` applies and needs the judge. */
export function hasExpectedResponse(expected: string | null | undefined): expected is string {
  return typeof expected === 'string' && expected.trim() !== '';
}

/** True when the case has rubrics, so `rubric_based` applies and needs the judge. */
export function hasRubrics(rubrics: readonly string[] | null | undefined): rubrics is readonly string[] {
  return Array.isArray(rubrics) && rubrics.length > 0;
}

/** Scores `final_response_match` as the fraction of judge samples that say yes; an unusable sample is an error. */
export function scoreFinalResponse(
  input: FinalResponseInput,
): CriterionResult<FinalResponseDetail | NotApplicableDetail> | CriterionError {
  const criterion = 'final_response_match';
  if (!hasExpectedResponse(input.expected)) {
    return notApplicable(criterion, input.minScore, 'the case has no expected_final_response');
  }
  const unusable = unusableSamples(input.samples);
  if (unusable) return { criterion, error: unusable };
  const verdicts = input.samples as readonly MatchVerdict[];
  const yesVotes = verdicts.filter((verdict) => verdict.equivalent).length;
  return scored(criterion, yesVotes / verdicts.length, input.minScore, {
    yes_votes: yesVotes,
    samples: verdicts.length,
    justifications: verdicts.map((verdict) => verdict.justification),
  });
}

/** Scores `rubric_based`: per rubric the majority of samples wins (a tie is NO); score = approved ÷ rubrics. */
export function scoreRubrics(
  input: RubricsInput,
): CriterionResult<RubricDetail | NotApplicableDetail> | CriterionError {
  const criterion = 'rubric_based';
  if (!hasRubrics(input.rubrics)) return notApplicable(criterion, input.minScore, 'the case has no rubrics');
  return scoreVerdictItems(criterion, input.rubrics, input.samples, input.minScore);
}

/**
 * Scores items judged YES / NO by index (rubrics, or a scenario's items): per item the majority of samples wins (a
 * tie is NO); score = approved ÷ items. With no minimum the score is reported without gating the case.
 */
export function scoreVerdictItems(
  criterion: CriterionKey,
  items: readonly string[],
  samples: ReadonlyArray<readonly RubricVerdict[] | null>,
  minScore: number | null,
): CriterionResult<RubricDetail> | CriterionError {
  const unusable = unusableSamples(samples);
  if (unusable) return { criterion, error: unusable };
  const usable = samples as ReadonlyArray<readonly RubricVerdict[]>;
  const detail: RubricDetail = { approved: [], rejected: [] };
  for (let index = 0; index < items.length; index++) {
    const votes = usable.map((sample) => sample.find((verdict) => verdict.index === index));
    if (votes.some((vote) => vote === undefined)) {
      return { criterion, error: `the judge gave no verdict for ${itemName(criterion)} ${index}` };
    }
    const cast = votes as RubricVerdict[];
    const yesVotes = cast.filter((vote) => vote.verdict === 'YES').length;
    const approved = yesVotes * 2 > cast.length;
    const winning = cast.find((vote) => (vote.verdict === 'YES') === approved) as RubricVerdict;
    const judged: JudgedRubric = {
      index,
      rubric: items[index],
      justification: winning.justification,
      yes_votes: yesVotes,
      samples: cast.length,
    };
    (approved ? detail.approved : detail.rejected).push(judged);
  }
  const score = items.length === 0 ? 1 : detail.approved.length / items.length;
  return minScore === null ? reportedOnly(criterion, score, detail) : scored(criterion, score, minScore, detail);
}

// What the error of a missing verdict calls an item: a rubric, a user turn, or an item of task_success.
const itemName = (criterion: CriterionKey): string =>
  criterion === 'rubric_based' || criterion === 'rubric_based_tool_use'
    ? 'rubric'
    : criterion === 'persona_adherence'
      ? 'user turn'
      : 'item';

function unusableSamples(samples: ReadonlyArray<unknown>): string | null {
  if (samples.length === 0) return 'the judge was not sampled';
  const failed = samples.filter((sample) => sample === null).length;
  if (failed === 0) return null;
  return `the judge gave no usable verdict in ${failed} of ${samples.length} samples`;
}
