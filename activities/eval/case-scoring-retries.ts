import { setTimeout as delay } from 'node:timers/promises';
import { ApplicationFailure } from '@temporalio/common';
import type { CaseResultInput } from '../../db/case-result.repository';
import type { ScoringRun } from '../../db/eval-run.repository';
import type { Conversation } from '../../db/tables/conversation.table';
import type { EvalCase } from '../../db/tables/eval-set.table';
import { caseTurns } from '../../domain/eval/case-turns';
import { efficiencyOf } from '../../domain/scoring/efficiency';
import { RUN_FATAL_FAILURES } from '../../domain/eval/run-failures';
import type { ActivityDeps } from '../platform/activity-deps';
import type { CasePlan, CaseRefused } from './batch-loads';
import { NO_CACHE_USE, repeatedResult, withSimulatedTools, type RepeatScore } from './case-repeat-results';
import { caseNeedsJudge, scoreCaseAgainst } from './case-scoring';
import type { Judge } from '../judge/judge.service';
import { judgeCallBound, JudgeCallBoundReached, type PrepaidCalls } from '../judge/judge-call-budget';
import { toActivityFailure } from '../platform/provider-connection';

// A case whose scoring fails transiently (provider down after the SDK's own retries, a dropped connection) is tried
// this many times inside its batch, with a doubling backoff, before it is stored as an `error`.
const CASE_ATTEMPTS = 3;
const CASE_BACKOFF_MS = 500;

/** Raised when a case's failure is fatal for the whole run (`RUN_FATAL_FAILURES`): the batch stops and fails with it. */
export class RunFatalFailure extends Error {
  constructor(readonly failure: ApplicationFailure) {
    super(failure.message);
    this.name = 'RunFatalFailure';
  }
}

/** The message of a case whose scoring failed after its retries (the same words the workflow has always stored). */
export function afterRetries(message: string): string {
  return `scoring failed after retries: ${message}`;
}

/** The `error` result of a case refused or failed; the `skipped` result, with its reason, of a case not scored. */
export function errorResult(deps: ActivityDeps, runId: string, refused: CaseRefused): CaseResultInput {
  return {
    run_id: runId,
    case_id: refused.caseId,
    case_name: refused.caseName,
    conversation_id: refused.conversationId,
    status: refused.skipped ? 'skipped' : 'error',
    criteria: {},
    error: refused.skipped ? null : refused.error,
    skip_reason: refused.skipped ? refused.error : null,
    judge_usage: null,
    scored_by: deps.workerIdentity,
  };
}

/** A repeat of a case to score: the case, the conversation it is scored against, and which repeat it is. */
interface RepeatTarget {
  evalCase: EvalCase;
  conversation: Conversation;
  repeat: number;
}

/** The judge calls a case may still make: those its batch prepaid (spent first), then up to its bound. */
interface CaseBudget {
  prepaid: PrepaidCalls;
  bound: number;
}

/**
 * Scores one repeat of a case: a transient failure is retried a few times, then the repeat is an `error`, as is one
 * that no retry could fix (the provider rejected the request, the case's bound on judge calls). A failure fatal for
 * the run throws `RunFatalFailure`; an aborted batch rethrows. Repeat r asks the judge for samples r × judge_samples on.
 */
async function scoreRepeat(
  deps: ActivityDeps,
  judge: Judge,
  run: ScoringRun,
  { evalCase, conversation, repeat }: RepeatTarget,
  signal: AbortSignal,
  budget: CaseBudget,
): Promise<RepeatScore> {
  const refuse = (error: string): RepeatScore => ({
    outcome: { status: 'error', criteria: [], error },
    usage: null,
    cache: NO_CACHE_USE,
    conversationId: conversation.id,
  });
  for (let attempt = 1; ; attempt++) {
    try {
      const judged = { runId: run.id, caseId: evalCase.id, ...budget };
      const session = caseNeedsJudge(evalCase, run.min_scores) ? await judge.open(run, judged, signal) : null;
      const outcome = await scoreCaseAgainst({
        evalCase,
        conversation,
        minScores: run.min_scores,
        judgeSamples: run.judge_samples,
        judge: session,
        sampleOffset: repeat * run.judge_samples,
      });
      const usage = session?.usage() ?? null;
      return {
        outcome,
        usage: run.mode === 'live' ? withSimulatedTools(usage, conversation.tool_calls) : usage,
        cache: session?.cache() ?? NO_CACHE_USE,
        conversationId: conversation.id,
        efficiency: efficiencyOf(conversation),
      };
    } catch (error) {
      if (signal.aborted) throw error;
      // The bound is final: another attempt would only be refused, so the repeat ends here with an error naming it.
      if (error instanceof JudgeCallBoundReached) return refuse(error.message);
      const failure = toActivityFailure(error);
      if (failure instanceof ApplicationFailure && failure.nonRetryable) {
        if (RUN_FATAL_FAILURES.includes(failure.type ?? '')) throw new RunFatalFailure(failure);
        return refuse(afterRetries(failure.message));
      }
      if (attempt >= CASE_ATTEMPTS) return refuse(afterRetries(error instanceof Error ? error.message : String(error)));
      await delay(CASE_BACKOFF_MS * 2 ** (attempt - 1), undefined, { signal });
    }
  }
}

/**
 * Scores one case of a batch into the result to store: a refused case as its error; otherwise each of the run's
 * repeats in turn (offline against the same conversation, live against the repeat's own), aggregated by
 * `repeatedResult`. `prepaid` judge calls were counted for the case by its batch; they are spent before counting more.
 */
export async function scoreCasePlan(
  deps: ActivityDeps,
  judge: Judge,
  run: ScoringRun,
  plan: CasePlan,
  signal: AbortSignal,
  prepaid = 0,
): Promise<CaseResultInput> {
  if ('error' in plan) return errorResult(deps, run.id, plan);
  const budget = { prepaid: { left: prepaid }, bound: judgeCallBound(run.repeats, caseTurns(plan.evalCase).length) };
  const scores: RepeatScore[] = [];
  for (let repeat = 0; repeat < run.repeats; repeat++) {
    const conversation = plan.repeatConversations?.[repeat] ?? plan.conversation;
    scores.push(await scoreRepeat(deps, judge, run, { evalCase: plan.evalCase, conversation, repeat }, signal, budget));
  }
  return repeatedResult(deps, run, plan, scores);
}
