import { setTimeout as delay } from 'node:timers/promises';
import { ApplicationFailure } from '@temporalio/common';
import type { CaseResultInput } from '../db/case-result.repository';
import type { ScoringRun } from '../db/eval-run.repository';
import { RUN_FATAL_FAILURES } from '../domain/run-failures';
import type { ActivityDeps } from './activity-deps';
import type { CasePlan, CaseRefused } from './batch-loads';
import { caseNeedsJudge, criteriaByKey, scoreCaseAgainst } from './case-scoring';
import type { Judge } from './judge.activities';
import { JudgeCallBoundReached } from './judge-call-budget';
import { toActivityFailure } from './provider-connection';

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

/** The `error` result of a case refused or failed. */
export function errorResult(deps: ActivityDeps, runId: string, refused: CaseRefused): CaseResultInput {
  return {
    run_id: runId,
    case_id: refused.caseId,
    case_name: refused.caseName,
    conversation_id: refused.conversationId,
    status: 'error',
    criteria: {},
    error: refused.error,
    judge_usage: null,
    scored_by: deps.workerIdentity,
  };
}

/**
 * Scores one case of a batch into the result to store: a refused case as its error; a transient failure is retried
 * a few times, then stored as an error, as is one that no retry could fix (the provider rejected the request, the
 * case's bound on judge calls). A failure fatal for the run throws `RunFatalFailure`; an aborted batch rethrows.
 * `prepaid` judge calls were counted for the case by its batch; the first attempt spends them before counting more.
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
  const { evalCase, conversation } = plan;
  const refuse = (error: string) =>
    errorResult(deps, run.id, {
      caseId: evalCase.id,
      caseName: evalCase.name,
      conversationId: conversation.id,
      error,
    });
  for (let attempt = 1; ; attempt++) {
    try {
      const judged = { runId: run.id, caseId: evalCase.id, prepaid: attempt === 1 ? prepaid : 0 };
      const session = caseNeedsJudge(evalCase) ? await judge.open(run, judged, signal) : null;
      const outcome = await scoreCaseAgainst({
        evalCase,
        conversation,
        minScores: run.min_scores,
        judgeSamples: run.judge_samples,
        judge: session,
      });
      return {
        run_id: run.id,
        case_id: evalCase.id,
        case_name: evalCase.name,
        conversation_id: conversation.id,
        status: outcome.status,
        criteria: criteriaByKey(outcome),
        error: outcome.error,
        judge_usage: session?.usage() ?? null,
        judge_cache_hits: session?.cache().hits ?? 0,
        judge_cache_misses: session?.cache().misses ?? 0,
        scored_by: deps.workerIdentity,
      };
    } catch (error) {
      if (signal.aborted) throw error;
      // The bound is final: another attempt would only be refused, so the case ends here with an error naming it.
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
