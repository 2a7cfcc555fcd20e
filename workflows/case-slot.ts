import {
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { CaseSlotHolder } from '../activities/eval/case-slot.activities';
import { CASE_SLOT_RENEW_MS } from '../domain/eval/case-slots';
import { CASE_SLOT_QUICK_ACTIVITY, CASE_SLOT_RENEW_ACTIVITY, CASE_SLOT_WAIT_ACTIVITY } from './activity-options';
import type { Activities } from '../activities';

const quick = proxyLocalActivities<Activities>(CASE_SLOT_QUICK_ACTIVITY);
const { acquireCaseSlot } = proxyActivities<Activities>(CASE_SLOT_WAIT_ACTIVITY);
const { renewCaseSlot } = proxyActivities<Activities>(CASE_SLOT_RENEW_ACTIVITY);

/** What a scoring activity answers when every slot of its workspace is held. */
export interface WaitingForSlot {
  waitingForSlot: true;
}

/**
 * Scores in one of the workspace's slots (`WORKSPACE_EVAL_CONCURRENCY` across all its runs): the scoring activity takes
 * free slots itself and gives them back with its result, so an uncontended batch costs the workflow nothing; when none
 * is free the batch waits here for the holder's slot, then scores again (extending it). A slot the activity could not
 * give back (its attempts failed, or the run was cancelled) is given back here.
 */
export async function scoreInCaseSlot<T extends object>(
  holder: CaseSlotHolder,
  score: () => Promise<T | WaitingForSlot>,
): Promise<T> {
  let scored = false;
  try {
    for (;;) {
      const answer = await score();
      if (!('waitingForSlot' in answer)) {
        scored = true;
        return answer;
      }
      await acquireCaseSlot(holder);
    }
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
      await renewCaseSlot(holder);
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
    if (!(await quick.tryCaseSlot(holder)).acquired) await acquireCaseSlot(holder);
    return await renewingWhile(holder, work());
  } finally {
    await CancellationScope.nonCancellable(() => quick.releaseCaseSlot(holder));
  }
}
