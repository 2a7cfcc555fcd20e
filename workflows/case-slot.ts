import {
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { CaseSlotActivities, CaseSlotHolder } from '../activities/case-slot.activities';

// A lease outlives three missed renewals: only a run that stopped (terminated, or no worker for two minutes) loses its
// slots, and then they return to the workspace by themselves.
const LEASE_MS = 2 * 60_000;
const RENEW_EVERY = '30 seconds';

// The usual case, a free slot, and every release run as local activities: inside the current workflow task, one
// marker event each and no round trip through the server, so the cap costs an uncontended case almost nothing.
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

// Renews the lease until `work` settles; a failed renewal does not fail the case (the lease may lapse, that is all).
async function renewingWhile<T>(holder: CaseSlotHolder, work: Promise<T>): Promise<T> {
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  // Awaited below; this keeps a failure that lands during a renewal from counting as unhandled meanwhile.
  watched.catch(() => undefined);
  while (!(await condition(() => settled, RENEW_EVERY))) {
    try {
      await renewing.renewCaseSlot({ ...holder, leaseMs: LEASE_MS });
    } catch (error) {
      if (isCancellation(error)) throw error;
    }
  }
  return watched;
}

/**
 * Runs one case's work in one of its workspace's slots (`WORKSPACE_EVAL_CONCURRENCY` across all of the workspace's
 * runs): waits for a slot, keeps its lease alive while the work runs, and gives it back however the work ends,
 * cancellation included. A terminated run cannot give its slots back; their leases lapse instead.
 */
export async function inCaseSlot<T>(holder: CaseSlotHolder, work: () => Promise<T>): Promise<T> {
  try {
    const request = { ...holder, leaseMs: LEASE_MS };
    if (!(await quick.tryCaseSlot(request)).acquired) await waiting.acquireCaseSlot(request);
    return await renewingWhile(holder, work());
  } finally {
    await CancellationScope.nonCancellable(() => quick.releaseCaseSlot(holder));
  }
}
