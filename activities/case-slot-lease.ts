import { ApplicationFailure } from '@temporalio/common';
import {
  acquireCaseSlot,
  releaseCaseSlot,
  renewCaseSlot,
  type CaseSlotHolder,
  type SlotAcquisition,
} from '../db/case-slot.repository';
import { CASE_SLOT_LEASE_MS, CASE_SLOT_RENEW_MS } from '../domain/case-slots';
import { RUN_FAILURE } from '../domain/run-failures';
import type { ActivityDeps } from './activity-deps';

/** Takes one of the workspace's slots for the case if one is free (or extends the case's own); the run must exist. */
export async function takeCaseSlot(deps: ActivityDeps, holder: CaseSlotHolder): Promise<SlotAcquisition> {
  const slot = await acquireCaseSlot(deps.db, holder, deps.config.WORKSPACE_EVAL_CONCURRENCY, CASE_SLOT_LEASE_MS);
  if (!slot)
    throw ApplicationFailure.nonRetryable(`eval run ${holder.runId} no longer exists`, RUN_FAILURE.evalRunNotFound);
  return slot;
}

/** What `inFreeCaseSlot` answers when every slot of the workspace is held: the workflow waits for one, then asks again. */
export const NO_FREE_SLOT = { waitingForSlot: true } as const;

/**
 * Runs `work` in the case's slot, taking a free one first (or extending the one the case already holds), renewing its
 * lease meanwhile and giving it back once `work` has succeeded. A failure keeps the slot for the activity's next
 * attempt (which extends it); the workflow gives it back if no attempt succeeds.
 */
export async function inFreeCaseSlot<T>(
  deps: ActivityDeps,
  holder: CaseSlotHolder,
  work: () => Promise<T>,
): Promise<T | typeof NO_FREE_SLOT> {
  if (!(await takeCaseSlot(deps, holder)).acquired) return NO_FREE_SLOT;
  // A renewal that fails is retried at the next tick; three in a row would let the lease lapse, nothing worse.
  const renewal = setInterval(
    () => void renewCaseSlot(deps.db, holder, CASE_SLOT_LEASE_MS).catch(() => undefined),
    CASE_SLOT_RENEW_MS,
  );
  try {
    const result = await work();
    await releaseCaseSlot(deps.db, holder);
    return result;
  } finally {
    clearInterval(renewal);
  }
}
