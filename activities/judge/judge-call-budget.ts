import { reserveJudgeCall } from '../../db/judge-call.repository';
import { LIMITS } from '../../domain/limits';
import type { EgressGuard } from '../../lib/outbound/egress/egress-guard';
import type { ActivityDeps } from '../platform/activity-deps';

/** Calls a batch already counted for a case (`reserveJudgeCalls`), shared by every session the case opens. */
export interface PrepaidCalls {
  left: number;
}

/** The case whose judge calls are counted: one budget per case of a run, kept in Postgres across attempts. */
export interface JudgedCase {
  runId: string;
  caseId: string;
  /** Made without another count, before any other; each call spends one. */
  prepaid?: PrepaidCalls;
  /** The case's bound on judge calls in this run (`judgeCallBound`); `LIMITS.judgeCallsPerCase` when absent. */
  bound?: number;
}

/**
 * The bound on one case's judge calls in a run: `LIMITS.judgeCallsPerCase` for each of its repeats and each of its
 * turns (a one-turn case: per repeat, as before turns existed).
 */
export const judgeCallBound = (repeats: number, turns = 1): number =>
  LIMITS.judgeCallsPerCase * repeats * Math.max(1, turns);

/** Raised when a case has made every judge call its bound allows; the case ends with this message. */
export class JudgeCallBoundReached extends Error {
  constructor(
    lastFailure: string | null,
    readonly bound: number = LIMITS.judgeCallsPerCase,
  ) {
    super(
      `the judge was called ${bound} times for this case, the bound on judge calls per case ` +
        `(judgeCallsPerCase per repeat and turn, retries included), without a verdict for every sample` +
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
  const prepaid = judged.prepaid ?? { left: 0 };
  const bound = judged.bound ?? LIMITS.judgeCallsPerCase;
  const refuse = (error: Error): never => {
    refusal ??= error;
    controller.abort();
    throw refusal;
  };
  return {
    async fetch(url, init) {
      if (refusal) return refuse(refusal);
      if (prepaid.left > 0) {
        prepaid.left--;
        calls++;
        return fetch(url, init);
      }
      let reserved: boolean;
      try {
        reserved = await reserveJudgeCall(deps.db, judged.runId, judged.caseId, bound);
      } catch (error) {
        return refuse(error instanceof Error ? error : new Error(String(error)));
      }
      if (!reserved) return refuse(new JudgeCallBoundReached(null, bound));
      calls++;
      return fetch(url, init);
    },
    calls: () => calls,
    refusal: () => refusal,
  };
}
