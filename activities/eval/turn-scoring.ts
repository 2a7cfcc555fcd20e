import type { CaseTurn } from '../../domain/eval/case-turns';
import type { ConversationTurn } from '../../domain/eval/conversation-turns';
import type { CriterionError, CriterionResult, MinScores } from '../../domain/scoring/criteria';
import { hallucinationsPrompt, parseSentenceLabels, scoreHallucinations } from '../../domain/scoring/hallucinations';
import { hasExpectedResponse, hasRubrics, scoreFinalResponse, scoreRubrics } from '../../domain/scoring/judge-verdicts';
import { splitSentences } from '../../domain/scoring/sentences';
import { scoreResponseMatch } from '../../domain/scoring/response-match';
import type { TurnCriterionKey } from '../../domain/scoring/turn-outcomes';
import { scoreTrajectory } from '../../domain/trajectory/trajectory';
import type { TrajectoryMatch } from '../../domain/trajectory/trajectory-modes';
import type { JudgeSession } from '../judge/judge-session';

/** What scoring one turn reads besides the two turns: the case's mode and minimums, and the judge. */
export interface TurnJudging {
  mode: TrajectoryMatch;
  minScores: MinScores;
  judgeSamples: number;
  judge: JudgeSession | null;
  sampleOffset: number;
}

/**
 * Scores one expected turn against the agent's turn like a one-turn case: the trajectory with the case's mode,
 * `final_response_match` on the turn's user message, expected and actual reply, and the turn's `rubrics` (for a
 * one-turn case, the case's rubrics) judged against the turn's reply. Criteria that do not apply are returned as such.
 */
export async function scoreTurn(
  expected: CaseTurn,
  actual: ConversationTurn,
  judging: TurnJudging,
): Promise<Array<CriterionResult | CriterionError>> {
  const { judge, judgeSamples, sampleOffset, minScores } = judging;
  const userInput = expected.user_message;
  const matchSamples =
    hasExpectedResponse(expected.expected_response) && judge
      ? await judge.sampleMatch(
          { userInput, expected: expected.expected_response, actual: actual.final_response, sampleOffset },
          judgeSamples,
        )
      : [];
  const rubricSamples =
    hasRubrics(expected.rubrics) && judge
      ? await judge.sampleRubrics(
          { userInput, response: actual.final_response, rubrics: expected.rubrics, sampleOffset },
          judgeSamples,
        )
      : [];
  return [
    scoreTrajectory({
      expected: expected.expected_trajectory,
      actual: actual.tool_calls,
      minScore: minScores.tool_trajectory_avg_score,
      mode: judging.mode,
    }),
    scoreFinalResponse({
      expected: expected.expected_response,
      samples: matchSamples,
      minScore: minScores.final_response_match,
    }),
    scoreRubrics({ rubrics: expected.rubrics, samples: rubricSamples, minScore: minScores.rubric_based }),
    ...optional(
      scoreResponseMatch({
        expected: expected.expected_response,
        actual: actual.final_response,
        minScore: minScores.response_match_score,
      }),
    ),
    ...optional(await judgeHallucinations(userInput, actual, judging)),
  ];
}

/**
 * `hallucinations` of one turn when its minimum is set: the reply split into sentences, labelled by one judge call
 * (the turn's first sample) against the user message and the turn's tool calls with their results.
 */
async function judgeHallucinations(
  userInput: string,
  actual: ConversationTurn,
  { judge, minScores, sampleOffset }: TurnJudging,
): Promise<CriterionResult | CriterionError | null> {
  const minScore = minScores.hallucinations;
  if (minScore === undefined || !judge) return null;
  const sentences = splitSentences(actual.final_response);
  const verdict =
    sentences.length === 0
      ? null
      : await judge.reply(
          hallucinationsPrompt({ userInput, toolCalls: actual.tool_calls, sentences }),
          sampleOffset,
          (content) => parseSentenceLabels(content, sentences.length),
        );
  return scoreHallucinations({ sentences, verdict, minScore });
}

const optional = <T>(entry: T | null): T[] => (entry === null ? [] : [entry]);

/** The criteria a case of these turns applies per turn (a missing or extra turn scores 0 on each of them). */
export function perTurnKeys(turns: readonly CaseTurn[], minScores: MinScores): TurnCriterionKey[] {
  const keys: TurnCriterionKey[] = [];
  if (turns.some((turn) => turn.expected_trajectory != null))
    keys.push({ criterion: 'tool_trajectory_avg_score', minScore: minScores.tool_trajectory_avg_score });
  if (turns.some((turn) => hasExpectedResponse(turn.expected_response)))
    keys.push({ criterion: 'final_response_match', minScore: minScores.final_response_match });
  if (turns.some((turn) => hasRubrics(turn.rubrics)))
    keys.push({ criterion: 'rubric_based', minScore: minScores.rubric_based });
  const rouge = minScores.response_match_score;
  if (rouge !== undefined && turns.some((turn) => hasExpectedResponse(turn.expected_response)))
    keys.push({ criterion: 'response_match_score', minScore: rouge });
  if (minScores.hallucinations !== undefined)
    keys.push({ criterion: 'hallucinations', minScore: minScores.hallucinations });
  return keys;
}

/**
 * The judge calls scoring these turns makes when every reply is usable (case-level rubrics apart): each judged
 * criterion's samples, and one `hallucinations` call per turn when its minimum is set.
 */
export function turnJudgeCalls(turns: readonly CaseTurn[], samples: number, minScores?: Partial<MinScores>): number {
  const hallucinations = minScores?.hallucinations !== undefined ? 1 : 0;
  return turns.reduce(
    (calls, turn) =>
      calls +
      (hasExpectedResponse(turn.expected_response) ? samples : 0) +
      (hasRubrics(turn.rubrics) ? samples : 0) +
      hallucinations,
    0,
  );
}

/**
 * The conversation as the judge of case-level rubrics reads it: every turn's user message and reply in order, but the
 * last reply, which is the response judged.
 */
export function transcriptBeforeLastReply(turns: readonly ConversationTurn[]): string {
  return turns
    .flatMap((turn, index) => [
      `user: ${turn.user_message}`,
      ...(index < turns.length - 1 ? [`assistant: ${turn.final_response}`] : []),
    ])
    .join('\n');
}
