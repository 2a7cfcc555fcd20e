import type { RecordedToolCall } from '../../db/tables/conversation.table';
import type { ConversationTurn } from '../../domain/eval/conversation-turns';
import type { CriterionError, CriterionResult, MinScores } from '../../domain/scoring/criteria';
import { toolUseRubricsPrompt } from '../../domain/scoring/judge-prompts';
import { hasRubrics, scoreVerdictItems } from '../../domain/scoring/judge-verdicts';
import type { JudgeSession } from '../judge/judge-session';

/** What judging a case's tool-use rubrics reads. */
export interface ToolUseJudging {
  rubrics: readonly string[] | null | undefined;
  minScores: MinScores;
  judge: JudgeSession | null;
  judgeSamples: number;
  sampleOffset: number;
}

/**
 * `rubric_based_tool_use`: the case's `tool_use_rubrics` judged YES / NO once over the whole conversation (every
 * turn's user message, and every tool call with its turn, arguments and result), `judge_samples` samples, the majority
 * per rubric (a tie is NO); score = approved ÷ rubrics, at the criterion's minimum or else `rubric_based`'s. Null when
 * the case has no such rubrics.
 */
export async function scoreToolUseRubrics(
  actual: readonly ConversationTurn[],
  { rubrics, minScores, judge, judgeSamples, sampleOffset }: ToolUseJudging,
): Promise<CriterionResult | CriterionError | null> {
  if (!hasRubrics(rubrics) || !judge) return null;
  const toolCalls = actual.flatMap((turn, index) =>
    turn.tool_calls.map((call) => ({
      turn: index,
      tool_name: call.tool_name,
      tool_args: call.tool_args,
      result: (call as RecordedToolCall).result ?? null,
    })),
  );
  const messages = toolUseRubricsPrompt({ userMessages: actual.map((turn) => turn.user_message), toolCalls, rubrics });
  const samples = await judge.sampleItems({ messages, items: rubrics.length, sampleOffset }, judgeSamples);
  const minScore = minScores.rubric_based_tool_use ?? minScores.rubric_based;
  return scoreVerdictItems('rubric_based_tool_use', rubrics, samples, minScore);
}
