import type { Conversation } from '../../db/tables/conversation.table';
import type { StoredCriterion } from '../../db/tables/eval-run.table';
import type { EvalCase } from '../../db/tables/eval-set.table';
import { caseTurns, type CaseTurn } from '../../domain/eval/case-turns';
import { conversationTurns, type ConversationTurn } from '../../domain/eval/conversation-turns';
import { decideCaseOutcome, type CaseOutcome } from '../../domain/scoring/case-outcome';
import {
  isCriterionError,
  type CriterionError,
  type CriterionKey,
  type CriterionResult,
  type MinScores,
} from '../../domain/scoring/criteria';
import { hasRubrics, scoreRubrics } from '../../domain/scoring/judge-verdicts';
import { scoreSafety } from '../../domain/scoring/safety';
import {
  absentTurn,
  firstFailedTurn,
  overTurns,
  scoredTurn,
  turnStatus,
  type TurnOutcome,
} from '../../domain/scoring/turn-outcomes';
import type { JudgeSession } from '../judge/judge-session';
import { isScenarioCase, SCENARIO_JUDGED_CRITERIA, scoreScenarioAgainst } from './scenario-scoring';
import { scoreToolUseRubrics } from './tool-use-scoring';
import { perTurnKeys, scoreTurn, transcriptBeforeLastReply, turnJudgeCalls, type TurnJudging } from './turn-scoring';

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

/**
 * The judge calls a case makes when every reply is usable: the samples of each judged criterion of each turn (and a
 * `hallucinations` call per turn when the run's minimums set it).
 */
export function expectedJudgeCalls(evalCase: EvalCase, samples: number, minScores?: Partial<MinScores>): number {
  if (isScenarioCase(evalCase)) return SCENARIO_JUDGED_CRITERIA * samples;
  const caseLevel =
    (hasRubrics(evalCase.rubrics) ? samples : 0) + (hasRubrics(evalCase.tool_use_rubrics) ? samples : 0);
  return turnJudgeCalls(caseTurns(evalCase), samples, minScores) + caseLevel;
}

/** True when the case has a criterion only the judge can score. */
export function caseNeedsJudge(evalCase: EvalCase, minScores?: Partial<MinScores>): boolean {
  return expectedJudgeCalls(evalCase, 1, minScores) > 0;
}

/**
 * Scores a case against a conversation with every criterion and decides its outcome (domain/ does the rules). A
 * one-turn case against a one-turn conversation is scored as one turn whose rubrics are the case's; anything else
 * turn by turn (`scoreTurnsAgainst`).
 */
export async function scoreCaseAgainst(input: CaseScoringInput): Promise<CaseOutcome> {
  const { evalCase, conversation, minScores, judgeSamples, judge, sampleOffset = 0 } = input;
  if (caseNeedsJudge(evalCase, minScores) && !judge)
    return { status: 'error', criteria: [], error: 'the run has no judge for this case' };
  if (isScenarioCase(evalCase) && judge) return scoreScenarioAgainst({ ...input, judge, sampleOffset });
  const expected = caseTurns(evalCase);
  const actual = conversationTurns(conversation);
  const judging = { mode: evalCase.trajectory_match, minScores, judgeSamples, judge, sampleOffset };
  if (expected.length === 1 && actual.length === 1 && !hasRubrics(expected[0].rubrics)) {
    const scored = await scoreTurn({ ...expected[0], rubrics: evalCase.rubrics }, actual[0], judging);
    const toolUse = await scoreToolUseRubrics(actual, { ...judging, rubrics: evalCase.tool_use_rubrics });
    return decideCaseOutcome([...scored, ...(toolUse ? [toolUse] : []), scoreSafety(conversation.guardrail_events)]);
  }
  return scoreTurnsAgainst(input, expected, actual, judging);
}

// Each turn position scored (a missing or extra one at 0), the case-level rubrics judged once over the whole
// conversation, each criterion's case score the mean over its turns, safety over the whole conversation.
async function scoreTurnsAgainst(
  input: CaseScoringInput,
  expected: readonly CaseTurn[],
  actual: readonly ConversationTurn[],
  judging: TurnJudging,
): Promise<CaseOutcome> {
  const { conversation, minScores } = input;
  const keys = perTurnKeys(expected, minScores);
  const turns: TurnOutcome[] = [];
  const errors: CriterionError[] = [];
  for (let turn = 0; turn < Math.max(expected.length, actual.length); turn++) {
    const sides = {
      turn,
      user_message: expected[turn]?.user_message ?? actual[turn]?.user_message ?? null,
      expected_response: expected[turn]?.expected_response ?? null,
      actual_response: actual[turn]?.final_response ?? null,
    };
    const status = turnStatus(turn, expected.length, actual.length);
    if (status !== 'scored') {
      turns.push(absentTurn(sides, status, keys));
      continue;
    }
    const results = await scoreTurn(expected[turn], actual[turn], judging);
    for (const failed of results.filter(isCriterionError))
      errors.push({ ...failed, error: `turn ${turn}: ${failed.error}` });
    turns.push(
      scoredTurn(
        sides,
        results.filter((result): result is CriterionResult => !isCriterionError(result)),
      ),
    );
  }
  const whole = await scoreConversationRubrics(input, actual, judging);
  if (whole && isCriterionError(whole)) errors.push(whole);
  const conversationRubrics = whole && !isCriterionError(whole) ? whole : undefined;
  const rouge = minScores.response_match_score;
  const criteria = [
    overTurns({ criterion: 'tool_trajectory_avg_score', minScore: minScores.tool_trajectory_avg_score }, turns),
    overTurns({ criterion: 'final_response_match', minScore: minScores.final_response_match }, turns),
    overTurns({ criterion: 'rubric_based', minScore: minScores.rubric_based }, turns, conversationRubrics),
    ...(rouge === undefined ? [] : [overTurns({ criterion: 'response_match_score', minScore: rouge }, turns)]),
    ...(minScores.hallucinations === undefined
      ? []
      : [overTurns({ criterion: 'hallucinations', minScore: minScores.hallucinations }, turns)]),
    scoreSafety(conversation.guardrail_events),
  ];
  const toolUse = await scoreToolUseRubrics(actual, { ...judging, rubrics: input.evalCase.tool_use_rubrics });
  const outcome = decideCaseOutcome([...criteria, ...(toolUse ? [toolUse] : []), ...errors]);
  return { ...outcome, turns, first_failed_turn: firstFailedTurn(turns) };
}

// The case-level rubrics, judged once against the last reply with the conversation before it as the user input.
async function scoreConversationRubrics(
  input: CaseScoringInput,
  actual: readonly ConversationTurn[],
  judging: TurnJudging,
): Promise<CriterionResult | CriterionError | null> {
  const rubrics = input.evalCase.rubrics;
  if (!hasRubrics(rubrics) || actual.length === 0 || !judging.judge) return null;
  const samples = await judging.judge.sampleRubrics(
    {
      userInput: transcriptBeforeLastReply(actual),
      response: actual[actual.length - 1].final_response,
      rubrics,
      sampleOffset: judging.sampleOffset,
    },
    judging.judgeSamples,
  );
  return scoreRubrics({ rubrics, samples, minScore: judging.minScores.rubric_based });
}

/** A case outcome's criteria keyed by criterion, as stored and served. */
export function criteriaByKey(outcome: CaseOutcome): Partial<Record<CriterionKey, StoredCriterion>> {
  const keyed: Partial<Record<CriterionKey, StoredCriterion>> = {};
  for (const { criterion, score, min_score, passed, applicable, unscored, detail } of outcome.criteria) {
    keyed[criterion] = { score, min_score, passed, applicable, ...(unscored ? { unscored } : {}), detail };
  }
  return keyed;
}
