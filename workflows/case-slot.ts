import {
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { CaseSlotActivities, CaseSlotHolder } from '../activities/case-slot.activities';
import { CASE_SLOT_RENEW_MS } from '../domain/case-slots';

// Taking a free slot and giving one back run as local activities: inside the current workflow task, one marker
// event each and no round trip through the server.
const quick = proxyLocalActivities<CaseSlotActivities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '200 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '2 seconds',
    maximumAttempts: 5,
  },
});

// Waiting for a slot is this activity's retries: the server re-runs it after a backoff capped at a few seconds, which
// records no history event, holds no worker slot and uses no attempt of the case. No attempt limit: while the
// workspace is full its other cases are progressing, and every lease ends.
const waiting = proxyActivities<CaseSlotActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 1.5, maximumInterval: '5 seconds' },
});

const renewing = proxyActivities<CaseSlotActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/** What the scoring activity answers: the case's status, or that every slot of its workspace is held. */
export type SlotScoring = { status: string } | { waitingForSlot: true };

/**
 * Scores a case in one of its workspace's slots (`WORKSPACE_EVAL_CONCURRENCY` across all its runs). The scoring
 * activity takes a free slot itself and gives it back with the result, so an uncontended case costs the workflow
 * nothing; when none is free the case waits here for one, then scores in it. A slot the activity could not give back
 * (its attempts failed, or the run was cancelled) is given back here.
 */
export async function scoreInCaseSlot(holder: CaseSlotHolder, score: () => Promise<SlotScoring>): Promise<void> {
  let scored = false;
  try {
    while ('waitingForSlot' in (await score())) await waiting.acquireCaseSlot(holder);
    scored = true;
  } finally {
    if (!scored) await CancellationScope.nonCancellable(() => quick.releaseCaseSlot(holder));
  }
}

// Renews the lease until `work` settles; a failed renewal does not fail the case (the lease may lapse, that is all).
async function renewingWhile<T>(holder: CaseSlotHolder, work: Promise<T>): Promise<T> {
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  // Awaited below; this keeps a failure that lands during a renewal from counting as unhandled meanwhile.
  watched.catch(() => undefined);
  while (!(await condition(() => settled, CASE_SLOT_RENEW_MS))) {
    try {
      await renewing.renewCaseSlot(holder);
    } catch (error) {
      if (isCancellation(error)) throw error;
    }
  }
  return watched;
}

/**
 * Holds one of the workspace's slots around a live case's whole work (its sandbox run, then its scoring): waits for a
 * slot, renews its lease while the work runs, and gives it back however the work ends, cancellation included. A
 * terminated run cannot give its slots back; their leases lapse instead.
 */
export async function inCaseSlot<T>(holder: CaseSlotHolder, work: () => Promise<T>): Promise<T> {
  try {
    if (!(await quick.tryCaseSlot(holder)).acquired) await waiting.acquireCaseSlot(holder);
    return await renewingWhile(holder, work());
  } finally {
    await CancellationScope.nonCancellable(() => quick.releaseCaseSlot(holder));
  }
}
