import type { Conversation } from '../../db/tables/conversation.table';
import type { EvalCase } from '../../db/tables/eval-set.table';
import type { ConversationScenario } from '../../domain/eval/case-turns';
import { conversationTurns } from '../../domain/eval/conversation-turns';
import { resolvePersona } from '../../domain/eval/personas';
import { decideCaseOutcome, type CaseOutcome } from '../../domain/scoring/case-outcome';
import { isCriterionError, type CriterionResult, type MinScores } from '../../domain/scoring/criteria';
import type { RubricDetail } from '../../domain/scoring/judge-verdicts';
import { scoreSafety } from '../../domain/scoring/safety';
import {
  personaAdherencePrompt,
  taskSuccessItems,
  taskSuccessPrompt,
  type ScenarioBrief,
  type TranscriptTurn,
} from '../../domain/scoring/scenario-prompts';
import { scorePersonaAdherence, scoreTaskSuccess } from '../../domain/scoring/scenario-verdicts';
import { firstFailedTurn, type TurnOutcome } from '../../domain/scoring/turn-outcomes';
import type { JudgeSession } from '../judge/judge-session';

/** What scoring a scenario case reads: the case, the conversation its simulated user had, and the judge. */
export interface ScenarioScoringInput {
  evalCase: EvalCase;
  conversation: Conversation;
  minScores: MinScores;
  judgeSamples: number;
  judge: JudgeSession;
  sampleOffset: number;
}

/** True when the case is a conversation scenario only (no written turns): it is scored with the scenario criteria. */
export function isScenarioCase(evalCase: EvalCase): boolean {
  return evalCase.turns === null && evalCase.conversation_scenario !== null;
}

/** The judge calls scoring a scenario case makes when every reply is usable: each criterion's samples. */
export const SCENARIO_JUDGED_CRITERIA = 2;

/** The scenario as the judge reads it: a built-in persona resolved to its description, behaviours and rubrics. */
export function scenarioBrief(scenario: ConversationScenario): ScenarioBrief {
  return {
    starting_prompt: scenario.starting_prompt,
    conversation_plan: scenario.conversation_plan ?? null,
    persona: resolvePersona(scenario.user_persona),
  };
}

/**
 * Scores a scenario case against the conversation its simulated user had: `task_success` (one judgement of the whole
 * transcript on the plan and the case's rubrics), `persona_adherence` (a verdict per user turn, each shown on its
 * turn) and `safety`; the turns carry the transcript.
 */
export async function scoreScenarioAgainst(input: ScenarioScoringInput): Promise<CaseOutcome> {
  const { evalCase, conversation, minScores, judgeSamples, judge, sampleOffset } = input;
  const scenario = scenarioBrief(evalCase.conversation_scenario as ConversationScenario);
  const transcript: TranscriptTurn[] = conversationTurns(conversation).map((turn) => ({
    user: turn.user_message,
    agent: turn.final_response,
  }));
  const rubrics = evalCase.rubrics;
  const taskSamples = await judge.sampleItems(
    {
      messages: taskSuccessPrompt({ scenario, transcript, rubrics }),
      items: taskSuccessItems(rubrics).length,
      sampleOffset,
    },
    judgeSamples,
  );
  const personaSamples = await judge.sampleItems(
    { messages: personaAdherencePrompt({ scenario, transcript }), items: transcript.length, sampleOffset },
    judgeSamples,
  );
  const persona = scorePersonaAdherence({ transcript, samples: personaSamples, minScores });
  const outcome = decideCaseOutcome([
    scoreTaskSuccess({ rubrics, samples: taskSamples, minScores }),
    persona,
    scoreSafety(conversation.guardrail_events),
  ]);
  const turns = transcriptTurns(transcript, isCriterionError(persona) ? null : persona);
  return { ...outcome, turns, first_failed_turn: firstFailedTurn(turns) };
}

// Each turn of the transcript, with its persona_adherence verdict (1 or 0) when the judge gave one.
function transcriptTurns(
  transcript: readonly TranscriptTurn[],
  persona: CriterionResult<RubricDetail> | null,
): TurnOutcome[] {
  const verdicts = persona ? [...persona.detail.approved, ...persona.detail.rejected] : [];
  return transcript.map((turn, index) => {
    const verdict = verdicts.find((entry) => entry.index === index);
    const kept = verdict ? persona?.detail.approved.includes(verdict) === true : true;
    const gated = persona?.min_score != null;
    const criteria: TurnOutcome['criteria'] = verdict
      ? {
          persona_adherence: {
            score: kept ? 1 : 0,
            min_score: persona?.min_score ?? null,
            passed: kept || !gated,
            detail: { justification: verdict.justification, yes_votes: verdict.yes_votes, samples: verdict.samples },
          },
        }
      : {};
    return {
      turn: index,
      status: 'scored',
      user_message: turn.user,
      expected_response: null,
      actual_response: turn.agent,
      passed: kept || !gated,
      criteria,
    };
  });
}
