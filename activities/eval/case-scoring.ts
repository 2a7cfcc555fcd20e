import type { Conversation } from '../../db/tables/conversation.table';
import type { StoredCriterion } from '../../db/tables/eval-run.table';
import type { EvalCase } from '../../db/tables/eval-set.table';
import { decideCaseOutcome, type CaseOutcome } from '../../domain/scoring/case-outcome';
import type { CriterionKey, MinScores } from '../../domain/scoring/criteria';
import { hasExpectedResponse, hasRubrics, scoreFinalResponse, scoreRubrics } from '../../domain/scoring/judge-verdicts';
import { scoreSafety } from '../../domain/scoring/safety';
import { scoreTrajectory } from '../../domain/trajectory/trajectory';
import type { JudgeSession } from '../judge/judge-session';

/** What scoring one case reads. */
export interface CaseScoringInput {
  evalCase: EvalCase;
  conversation: Conversation;
  minScores: MinScores;
  judgeSamples: number;
  judge: JudgeSession | null;
  /** The repeat's first sample index (repeat × judgeSamples): each repeat asks the judge for samples of its own. */
  sampleOffset?: number;
}

/** True when the case has a criterion only the judge can score. */
export function caseNeedsJudge(evalCase: EvalCase): boolean {
  return hasExpectedResponse(evalCase.expected_final_response) || hasRubrics(evalCase.rubrics);
}

/** The judge calls a case makes when every reply is usable: the samples of each criterion only the judge scores. */
export function expectedJudgeCalls(evalCase: EvalCase, samples: number): number {
  return (
    (hasExpectedResponse(evalCase.expected_final_response) ? samples : 0) + (hasRubrics(evalCase.rubrics) ? samples : 0)
  );
}

/** Scores a case against a conversation with every criterion and decides its outcome (domain/ does the rules). */
export async function scoreCaseAgainst(input: CaseScoringInput): Promise<CaseOutcome> {
  const { evalCase, conversation, minScores, judgeSamples, judge, sampleOffset = 0 } = input;
  if (caseNeedsJudge(evalCase) && !judge)
    return { status: 'error', criteria: [], error: 'the run has no judge for this case' };
  const userInput = evalCase.session_input.message;
  const actual = conversation.final_response;
  const matchSamples =
    hasExpectedResponse(evalCase.expected_final_response) && judge
      ? await judge.sampleMatch(
          { userInput, expected: evalCase.expected_final_response, actual, sampleOffset },
          judgeSamples,
        )
      : [];
  const rubricSamples =
    hasRubrics(evalCase.rubrics) && judge
      ? await judge.sampleRubrics(
          { userInput, response: actual, rubrics: evalCase.rubrics, sampleOffset },
          judgeSamples,
        )
      : [];
  return decideCaseOutcome([
    scoreTrajectory({
      expected: evalCase.expected_trajectory,
      actual: conversation.tool_calls,
      minScore: minScores.tool_trajectory_avg_score,
      mode: evalCase.trajectory_match,
    }),
    scoreFinalResponse({
      expected: evalCase.expected_final_response,
      samples: matchSamples,
      minScore: minScores.final_response_match,
    }),
    scoreRubrics({ rubrics: evalCase.rubrics, samples: rubricSamples, minScore: minScores.rubric_based }),
    scoreSafety(conversation.guardrail_events),
  ]);
}

/** A case outcome's criteria keyed by criterion, as stored and served. */
export function criteriaByKey(outcome: CaseOutcome): Partial<Record<CriterionKey, StoredCriterion>> {
  const keyed: Partial<Record<CriterionKey, StoredCriterion>> = {};
  for (const { criterion, score, min_score, passed, applicable, detail } of outcome.criteria) {
    keyed[criterion] = { score, min_score, passed, applicable, detail };
  }
  return keyed;
}
