import { reserveJudgeCall } from '../db/judge-call.repository';
import { LIMITS } from '../domain/limits';
import type { EgressGuard } from '../lib/egress/egress-guard';
import type { ActivityDeps } from './activity-deps';

/** The case whose judge calls are counted: one budget per case of a run, kept in Postgres across attempts. */
export interface JudgedCase {
  runId: string;
  caseId: string;
  /** Calls its batch already counted for it (`reserveJudgeCalls`): made without another count, before any other. */
  prepaid?: number;
}

/** Raised when a case has made every judge call `LIMITS.judgeCallsPerCase` allows; the case ends with this message. */
export class JudgeCallBoundReached extends Error {
  constructor(lastFailure: string | null) {
    super(
      `the judge was called ${LIMITS.judgeCallsPerCase} times for this case, the bound on judge calls per case ` +
        `(judgeCallsPerCase, retries included), without a verdict for every sample` +
        (lastFailure ? `; last failure: ${lastFailure}` : ''),
    );
    this.name = 'JudgeCallBoundReached';
  }
}

/** A fetch that spends the case's budget: the calls it let through, and why it stopped (the bound, or a count failed). */
export interface BudgetedFetch {
  fetch: EgressGuard['fetch'];
  calls(): number;
  refusal(): Error | null;
}

/**
 * Wraps the judge's fetch so every HTTP attempt, the provider SDK's own retries included, first reserves one call of the
 * case's budget. Once the budget is spent (or cannot be counted) it aborts `controller`, which the session passes as
 * each request's signal: a fetch that throws would otherwise be retried by the SDK, an aborted one is not.
 */
export function budgetedFetch(
  deps: ActivityDeps,
  judged: JudgedCase,
  fetch: EgressGuard['fetch'],
  controller: AbortController,
): BudgetedFetch {
  let refusal: Error | null = null;
  let calls = 0;
  let prepaid = judged.prepaid ?? 0;
  const refuse = (error: Error): never => {
    refusal ??= error;
    controller.abort();
    throw refusal;
  };
  return {
    async fetch(url, init) {
      if (refusal) return refuse(refusal);
      if (prepaid > 0) {
        prepaid--;
        calls++;
        return fetch(url, init);
      }
      let reserved: boolean;
      try {
        reserved = await reserveJudgeCall(deps.db, judged.runId, judged.caseId, LIMITS.judgeCallsPerCase);
      } catch (error) {
        return refuse(error instanceof Error ? error : new Error(String(error)));
      }
      if (!reserved) return refuse(new JudgeCallBoundReached(null));
      calls++;
      return fetch(url, init);
    },
    calls: () => calls,
    refusal: () => refusal,
  };
}
