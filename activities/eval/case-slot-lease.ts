import { ApplicationFailure } from '@temporalio/common';
import { acquireCaseSlot, type CaseSlotHolder, type SlotAcquisition } from '../../db/case-slot.repository';
import { CASE_SLOT_LEASE_MS } from '../../domain/eval/case-slots';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import type { ActivityDeps } from '../platform/activity-deps';

/** Takes one of the workspace's slots for the case if one is free (or extends the case's own); the run must exist. */
export async function takeCaseSlot(deps: ActivityDeps, holder: CaseSlotHolder): Promise<SlotAcquisition> {
  const slot = await acquireCaseSlot(deps.db, holder, deps.config.WORKSPACE_EVAL_CONCURRENCY, CASE_SLOT_LEASE_MS);
  if (!slot)
    throw ApplicationFailure.nonRetryable(`eval run ${holder.runId} no longer exists`, RUN_FAILURE.evalRunNotFound);
  return slot;
}
