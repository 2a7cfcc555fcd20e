import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import {
  acquireCaseSlot,
  releaseCaseSlot,
  renewCaseSlot,
  type CaseSlotHolder,
  type SlotAcquisition,
} from '../db/case-slot.repository';
import { EVAL_FAILURE } from '../domain/judge-failures';
import type { ActivityDeps } from './index';

export type { CaseSlotHolder };

/** A case asking for, keeping or giving back a slot; `leaseMs` is how long the lease lasts without renewal. */
export type CaseSlotRequest = CaseSlotHolder & { leaseMs: number };

/** Activities of the per-workspace cap on cases in flight (`WORKSPACE_EVAL_CONCURRENCY`), shared by every run. */
export function createCaseSlotActivities(deps: ActivityDeps) {
  const acquire = async (input: CaseSlotRequest): Promise<SlotAcquisition> => {
    const acquisition = await acquireCaseSlot(deps.db, input, deps.config.WORKSPACE_EVAL_CONCURRENCY, input.leaseMs);
    if (!acquisition)
      throw ApplicationFailure.nonRetryable(`eval run ${input.runId} no longer exists`, EVAL_FAILURE.runNotFound);
    return acquisition;
  };

  return {
    /** Takes one of the workspace's slots for the case if one is free (the usual case), without waiting. */
    async tryCaseSlot(input: CaseSlotRequest): Promise<{ acquired: boolean }> {
      return { acquired: (await acquire(input)).acquired };
    },

    /**
     * Takes one of the workspace's slots for the case, or fails as retryable while all are held: Temporal retries it
     * after the workflow's bounded backoff, so waiting costs no history event, no worker slot and no attempt of the
     * case. BENIGN keeps those expected failures out of the warning log.
     */
    async acquireCaseSlot(input: CaseSlotRequest): Promise<void> {
      const { acquired, held } = await acquire(input);
      if (acquired) return;
      throw ApplicationFailure.create({
        message: `the workspace has ${held} cases in flight, its cap (WORKSPACE_EVAL_CONCURRENCY=${deps.config.WORKSPACE_EVAL_CONCURRENCY})`,
        type: EVAL_FAILURE.workspaceSlotsBusy,
        category: ApplicationFailureCategory.BENIGN,
      });
    },

    /** Extends the case's lease while it runs; false when it no longer had one (it is never re-created). */
    async renewCaseSlot(input: CaseSlotRequest): Promise<{ held: boolean }> {
      return { held: await renewCaseSlot(deps.db, input, input.leaseMs) };
    },

    /** Gives the case's slot back; safe to repeat, and to call for a slot never taken. */
    async releaseCaseSlot(input: CaseSlotHolder): Promise<void> {
      await releaseCaseSlot(deps.db, input);
    },
  };
}

export type CaseSlotActivities = ReturnType<typeof createCaseSlotActivities>;
