import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { releaseCaseSlot, renewCaseSlot, type CaseSlotHolder } from '../../db/case-slot.repository';
import { CASE_SLOT_LEASE_MS } from '../../domain/eval/case-slots';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { takeCaseSlot } from './case-slot-lease';
import type { ActivityDeps } from '../platform/activity-deps';

export type { CaseSlotHolder };

/** Activities of the per-workspace cap on cases in flight (`WORKSPACE_EVAL_CONCURRENCY`), shared by every run. */
export function createCaseSlotActivities(deps: ActivityDeps) {
  return {
    /** Takes one of the workspace's slots for the case if one is free, without waiting. */
    async tryCaseSlot(input: CaseSlotHolder): Promise<{ acquired: boolean }> {
      return { acquired: (await takeCaseSlot(deps, input)).acquired };
    },

    /**
     * Takes one of the workspace's slots for the case, or fails as retryable while all are held: Temporal retries it
     * after the workflow's bounded backoff, so waiting costs no history event, no worker slot and no attempt of the
     * case. BENIGN keeps those expected failures out of the warning log.
     */
    async acquireCaseSlot(input: CaseSlotHolder): Promise<void> {
      const { acquired, held } = await takeCaseSlot(deps, input);
      if (acquired) return;
      throw ApplicationFailure.create({
        message: `the workspace has ${held} cases in flight, its cap (WORKSPACE_EVAL_CONCURRENCY=${deps.config.WORKSPACE_EVAL_CONCURRENCY})`,
        type: RUN_FAILURE.workspaceSlotsBusy,
        category: ApplicationFailureCategory.BENIGN,
      });
    },

    /** Extends the case's lease while it runs; false when it no longer had one (it is never re-created). */
    async renewCaseSlot(input: CaseSlotHolder): Promise<{ held: boolean }> {
      return { held: await renewCaseSlot(deps.db, input, CASE_SLOT_LEASE_MS) };
    },

    /** Gives the case's slot back; safe to repeat, and to call for a slot never taken. */
    async releaseCaseSlot(input: CaseSlotHolder): Promise<void> {
      await releaseCaseSlot(deps.db, input);
    },
  };
}
