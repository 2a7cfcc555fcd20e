import type { Efficiency } from '../../domain/scoring/efficiency';
import type { CaseResultInput } from '../../db/case-result.repository';
import type { ScoringRun } from '../../db/eval-run.repository';
import type { RecordedToolCall } from '../../db/tables/conversation.table';
import type { JudgeUsage, StoredRepeat } from '../../db/tables/eval-run.table';
import type { CaseOutcome } from '../../domain/scoring/case-outcome';
import { aggregateRepeats } from '../../domain/scoring/case-repeats';
import type { ActivityDeps } from '../platform/activity-deps';
import type { CaseToScore } from './batch-loads';
import { criteriaByKey } from './case-scoring';

/** A repeat that asked the judge nothing (refused before scoring, or no judged criterion). */
export const NO_CACHE_USE = { hits: 0, misses: 0 } as const;

/** One repeat of a case as scored: its outcome, the judge usage of its calls, and the conversation it scored. */
export interface RepeatScore {
  outcome: CaseOutcome;
  usage: JudgeUsage | null;
  /** Judge samples the verdict cache answered, and those it did not. */
  cache: { hits: number; misses: number };
  conversationId: string;
  /** The scored conversation's efficiency figures (absent when the repeat was refused before scoring). */
  efficiency?: Efficiency;
}

// The usage of every repeat that recorded one, summed; null when none did.
function summedUsage(scores: readonly RepeatScore[]): JudgeUsage | null {
  return sumUsages(scores.flatMap((score) => (score.usage ? [score.usage] : [])));
}

/**
 * A repeat's judge usage with that of the model-written tool responses of its conversation (counted and priced as
 * judge calls); null when there is neither.
 */
export function withSimulatedTools(usage: JudgeUsage | null, calls: readonly RecordedToolCall[]): JudgeUsage | null {
  const simulated = calls.flatMap((call) => (call.judge_usage ? [call.judge_usage] : []));
  return simulated.length === 0 ? usage : sumUsages(usage ? [usage, ...simulated] : simulated);
}

/** Usages summed field by field; null when there are none. */
export function sumUsages(usages: readonly JudgeUsage[]): JudgeUsage | null {
  if (usages.length === 0) return null;
  const sum = (key: keyof JudgeUsage): number => usages.reduce((total, usage) => total + usage[key], 0);
  return {
    calls: sum('calls'),
    prompt_tokens: sum('prompt_tokens'),
    completion_tokens: sum('completion_tokens'),
    total_tokens: sum('total_tokens'),
  };
}

function storedRepeat(score: RepeatScore, repeat: number, live: boolean): StoredRepeat {
  return {
    repeat,
    status: score.outcome.status,
    ...(score.outcome.criteria.length > 0 ? { criteria: criteriaByKey(score.outcome) } : {}),
    ...(live ? { conversation_id: score.conversationId } : {}),
  };
}

/**
 * The result to store for a case from its repeats: one repeat is stored as it came out (no `repeats`, no flip rate);
 * several are aggregated (`aggregateRepeats`, passing at `min_repeat_pass`, default all) with each repeat's outcome, the
 * flip rate, the judge usage summed, and the last repeat's conversation.
 */
export function repeatedResult(
  deps: ActivityDeps,
  run: Pick<ScoringRun, 'id' | 'repeats' | 'min_repeat_pass'>,
  plan: CaseToScore,
  scores: readonly RepeatScore[],
): CaseResultInput {
  const last = scores[scores.length - 1];
  const base = {
    run_id: run.id,
    case_id: plan.evalCase.id,
    case_name: plan.evalCase.name,
    conversation_id: last.conversationId,
    judge_cache_hits: scores.reduce((sum, score) => sum + score.cache.hits, 0),
    judge_cache_misses: scores.reduce((sum, score) => sum + score.cache.misses, 0),
    scored_by: deps.workerIdentity,
    turns: last.outcome.turns ?? null,
    efficiency: last.efficiency ?? null,
  };
  if (scores.length === 1) {
    const { outcome, usage } = last;
    return {
      ...base,
      status: outcome.status,
      criteria: criteriaByKey(outcome),
      error: outcome.error,
      judge_usage: usage,
    };
  }
  const aggregate = aggregateRepeats(
    scores.map((score) => score.outcome),
    run.min_repeat_pass ?? scores.length,
  );
  const live = plan.repeatConversations !== undefined;
  return {
    ...base,
    status: aggregate.status,
    criteria: criteriaByKey(aggregate),
    error: aggregate.error,
    judge_usage: summedUsage(scores),
    repeats: scores.map((score, repeat) => storedRepeat(score, repeat, live)),
    flip_rate: aggregate.flip_rate,
  };
}
