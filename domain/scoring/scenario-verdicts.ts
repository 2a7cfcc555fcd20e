import { SCENARIO_DEFAULT_MIN_SCORES, type CriterionError, type CriterionResult, type MinScores } from './criteria';
import type { RubricVerdict } from './judge-output.parser';
import { scoreVerdictItems, type RubricDetail } from './judge-verdicts';
import { taskSuccessItems, type TranscriptTurn } from './scenario-prompts';

type Samples = ReadonlyArray<readonly RubricVerdict[] | null>;

/**
 * Scores `task_success`: one judgement of the whole transcript on the plan fulfilled plus each case rubric; per item
 * the majority of samples wins; score = items met ÷ items; minimum `min_scores.task_success`, else 0.7.
 */
export function scoreTaskSuccess(input: {
  rubrics: readonly string[] | null | undefined;
  samples: Samples;
  minScores: MinScores;
}): CriterionResult<RubricDetail> | CriterionError {
  const minScore = input.minScores.task_success ?? SCENARIO_DEFAULT_MIN_SCORES.task_success;
  return scoreVerdictItems('task_success', taskSuccessItems(input.rubrics), input.samples, minScore);
}

/**
 * Scores `persona_adherence`: per simulated user turn whether it kept to the plan and the persona (its violation
 * rubrics included); score = the mean over turns. It gates the case only when `min_scores.persona_adherence` is
 * set; otherwise it is reported with `min_score` null.
 */
export function scorePersonaAdherence(input: {
  transcript: readonly TranscriptTurn[];
  samples: Samples;
  minScores: MinScores;
}): CriterionResult<RubricDetail> | CriterionError {
  const userTurns = input.transcript.map((turn, index) => `turn ${index}: ${turn.user}`);
  return scoreVerdictItems('persona_adherence', userTurns, input.samples, input.minScores.persona_adherence ?? null);
}
