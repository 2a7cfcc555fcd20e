import { Context } from '@temporalio/activity';
import { findCaseResultStatuses } from '../../db/case-result.repository';
import { releaseCaseSlots } from '../../db/case-slot.repository';
import { findEvalCasesByIds } from '../../db/eval-case.repository';
import type { ScoringRun } from '../../db/eval-run.repository';
import type { CaseBatchOutcome } from '../../domain/eval/eval-batches';
import { reserveJudgeCalls } from '../../db/judge-call.repository';
import type { ActivityDeps } from '../platform/activity-deps';
import type { PriceOf } from '../../domain/scoring/model-prices';
import { runPrices, withCost } from './case-cost';
import { expectedJudgeCalls } from './case-scoring';
import { DELETED_CASE_NAME, planBatch, type CasePlan } from './batch-loads';
import { createResultBuffer, emptyOutcome, storedByEarlierAttempts, storeResults, tally } from './batch-results';
import { watchRun } from './batch-run-watch';
import { takeLaneSlots, waitForEarlierAttempt, WORKFLOW_HELD_SLOT, type LaneSlots } from './batch-slots';
import { errorResult, RunFatalFailure, scoreCasePlan } from './case-scoring-retries';
import type { Judge } from '../judge/judge.service';
import { caseTurns } from '../../domain/eval/case-turns';
import { judgeCallBound } from '../judge/judge-call-budget';

/** A batch of cases of one run to score (see `scoreCaseBatch`). */
export interface CaseBatchInput {
  runId: string;
  /** 1 … EVAL_BATCH_MAX distinct case ids of the run. */
  caseIds: string[];
  /** At most this many of the batch's cases are scored at once; each case in flight holds one workspace slot. */
  width: number;
  /** Live runs: case id → the conversation its sandbox run produced (scored instead of the explicit/source one). */
  conversations?: Record<string, string>;
  /** Live runs of several repeats: case id → the conversation of each repeat's sandbox run, in order. */
  repeatConversations?: Record<string, string[]>;
  /** Live runs: the workflow already holds the (single) case's slot. */
  slotHeld?: boolean;
  /**
   * The batch was in flight when the previous execution continued as new, and that attempt may still be scoring: the
   * first attempt waits until it gave its lanes' slots back (`waitForEarlierAttempt`), then skips what it stored. A
   * retry does not wait: the slots its holders have are its own earlier attempt's, which it extends.
   */
  carried?: boolean;
}

/** What `scoreCaseBatch` answers when no slot of the workspace was free: the workflow waits for one, then asks again. */
export const NO_FREE_SLOT = { waitingForSlot: true } as const;

const OPEN_RUN = ['queued', 'running'];

/**
 * Scores the plans in lanes (each lane one case at a time, while it holds its slot) and buffers their results. A
 * fatal failure or the activity's cancellation stops every lane; what was scored is written before the batch throws.
 */
async function scoreLanes(
  deps: ActivityDeps,
  judge: Judge,
  run: ScoringRun,
  { plans, prepaid, priceOf }: { plans: CasePlan[]; prepaid: ReadonlyMap<string, number>; priceOf: PriceOf },
  slots: LaneSlots,
  lanes: number,
  outcome: CaseBatchOutcome,
  carried: string[],
): Promise<void> {
  const buffer = createResultBuffer(deps.db, run.id, outcome, carried);
  const watch = watchRun(deps, run.id, outcome);
  let stop: unknown = undefined;
  const stopped = () => stop !== undefined || watch.signal.aborted || outcome.runClosed || !!buffer.failure();
  const lane = async (index: number): Promise<void> => {
    while (!stopped() && plans.length > 0) {
      if (!slots.holds(index)) {
        await slots.retryMissing();
        continue;
      }
      await watch.fresh();
      const plan = stopped() ? undefined : plans.shift();
      if (!plan) return;
      const started = performance.now();
      try {
        const paid = 'evalCase' in plan ? prepaid.get(plan.evalCase.id) : undefined;
        buffer.add(withCost(await scoreCasePlan(deps, judge, run, plan, watch.signal, paid), run, plan, priceOf));
      } catch (error) {
        stop ??= error;
        watch.abort(error);
      } finally {
        outcome.timings.scoreMs += performance.now() - started;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: lanes }, (_, index) => lane(index)));
    await buffer.close();
  } finally {
    watch.stop();
  }
  if (stop instanceof RunFatalFailure) throw stop.failure;
  // Cancelled (run cancelled, timed out, worker shutting down): what was scored is stored; the reason goes back.
  if (watch.signal.aborted) throw watch.signal.reason;
}

// The batch counts the judge calls its cases will make in one statement, rather than one statement per call on the
// judge's critical path; calls past these (retries, unusable replies) are counted one by one as before.
async function prepayJudgeCalls(
  deps: ActivityDeps,
  run: ScoringRun,
  plans: readonly CasePlan[],
): Promise<Map<string, number>> {
  const wanted = new Map<string, number>();
  const bounds = new Map<string, number>();
  for (const plan of plans) {
    if (!('evalCase' in plan)) continue;
    const calls = expectedJudgeCalls(plan.evalCase, run.judge_samples, run.min_scores) * run.repeats;
    if (calls === 0) continue;
    wanted.set(plan.evalCase.id, calls);
    bounds.set(plan.evalCase.id, judgeCallBound(run.repeats, caseTurns(plan.evalCase).length));
  }
  return reserveJudgeCalls(deps.db, run.id, wanted, bounds);
}

/**
 * Scores a batch of a run's cases once each, keeping the batch contract of `docs/eval-engine.md` (slots per lane, one
 * load per kind, buffered flushes, heartbeated ids): cases already stored, or heartbeat as stored by an earlier
 * attempt, are skipped.
 */
export async function scoreCaseBatch(
  deps: ActivityDeps,
  judge: Judge,
  run: ScoringRun,
  input: CaseBatchInput,
): Promise<CaseBatchOutcome | typeof NO_FREE_SLOT> {
  const outcome = emptyOutcome(deps.workerIdentity);
  const loading = performance.now();
  // Lane i's holder is the i-th case id: the same on every attempt, so a retry extends the slots a dead one left.
  const holders = input.caseIds.slice(0, Math.max(1, input.width));
  if (input.carried && Context.current().info.attempt === 1) await waitForEarlierAttempt(deps, run.id, holders);
  const carried = storedByEarlierAttempts();
  const stored = await findCaseResultStatuses(deps.db, run.id, input.caseIds);
  for (const status of stored.values()) tally(outcome, status);
  const done = new Set([...carried, ...stored.keys()]);
  const todo = input.caseIds.filter((caseId) => !done.has(caseId));
  outcome.skipped = input.caseIds.length - todo.length;
  outcome.runClosed = !OPEN_RUN.includes(run.status);
  const lanes = Math.max(1, Math.min(input.width, todo.length));
  if (todo.length === 0 || outcome.runClosed) {
    // Slots left by an attempt that stored its results and then died go back now, not when their leases lapse.
    if (!input.slotHeld) await releaseCaseSlots(deps.db, run.id, holders);
    outcome.timings.loadMs = performance.now() - loading;
    return outcome;
  }
  const slots = input.slotHeld
    ? WORKFLOW_HELD_SLOT
    : await takeLaneSlots(deps, run.id, holders.slice(0, lanes), holders);
  if (!slots) return NO_FREE_SLOT;
  try {
    const plans = await planBatch(deps, run, todo, input.conversations, input.repeatConversations);
    const prepaid = await prepayJudgeCalls(deps, run, plans);
    const priceOf = await runPrices(deps, run, plans);
    outcome.timings.loadMs = performance.now() - loading;
    await scoreLanes(deps, judge, run, { plans, prepaid, priceOf }, slots, lanes, outcome, carried);
    return outcome;
  } finally {
    await slots.release();
  }
}

/** Stores an `error` result for each case of the batch that has none (the batch failed after its retries). */
export async function recordBatchErrors(
  deps: ActivityDeps,
  run: ScoringRun,
  input: { caseIds: string[]; error: string },
): Promise<CaseBatchOutcome> {
  const outcome = emptyOutcome(deps.workerIdentity);
  const loading = performance.now();
  const stored = await findCaseResultStatuses(deps.db, run.id, input.caseIds);
  for (const status of stored.values()) tally(outcome, status);
  outcome.skipped = stored.size;
  const missing = input.caseIds.filter((caseId) => !stored.has(caseId));
  const cases = await findEvalCasesByIds(deps.db, missing);
  outcome.timings.loadMs = performance.now() - loading;
  const results = missing.map((caseId) =>
    errorResult(deps, run.id, {
      caseId,
      caseName: cases.get(caseId)?.name ?? DELETED_CASE_NAME,
      conversationId: null,
      error: input.error,
    }),
  );
  const writing = performance.now();
  await storeResults(deps.db, run.id, results, outcome);
  outcome.timings.writeMs = performance.now() - writing;
  return outcome;
}
