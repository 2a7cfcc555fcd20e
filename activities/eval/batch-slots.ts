import { setTimeout as delay } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { acquireCaseSlots, anyCaseSlotHeld, releaseCaseSlots, renewCaseSlots } from '../../db/case-slot.repository';
import { CASE_SLOT_LEASE_MS, CASE_SLOT_RENEW_MS } from '../../domain/eval/case-slots';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import type { ActivityDeps } from '../platform/activity-deps';

// How often lanes that got no slot try again while the others work: one statement for all of them.
const LANE_RETRY_MS = 1_000;

// How often a carried batch looks whether the attempt the previous execution left running gave its slots back.
const EARLIER_ATTEMPT_POLL_MS = 500;

/**
 * Waits until no lane slot of the batch's `holders` is held: a carried batch's first attempt waits here while the
 * attempt the previous execution left running (it goes on after continue-as-new) still scores its cases, so that none
 * is judged twice. That attempt gives its slots back once its results are stored; if its worker died, its leases lapse
 * (`CASE_SLOT_LEASE_MS`). Heartbeats while it waits; a cancelled activity stops waiting.
 */
export async function waitForEarlierAttempt(
  deps: ActivityDeps,
  runId: string,
  holders: readonly string[],
): Promise<void> {
  const context = Context.current();
  while (await anyCaseSlotHeld(deps.db, runId, holders)) {
    context.heartbeat();
    await context.sleep(EARLIER_ATTEMPT_POLL_MS);
  }
}

/** The workspace slots of a batch's lanes: lane i holds the slot whose holder is (run, the batch's i-th case id). */
export interface LaneSlots {
  /** True while lane `lane` holds its slot. */
  holds(lane: number): boolean;
  /** Waits for the next try at the slots lanes are missing (one statement for all of them). */
  retryMissing(): Promise<void>;
  /** Stops renewing and gives every lane's slot back (nothing when the workflow holds the slot). */
  release(): Promise<void>;
}

/** The one slot a live case's workflow holds for it: held throughout, renewed and released by the workflow. */
export const WORKFLOW_HELD_SLOT: LaneSlots = {
  holds: (lane) => lane === 0,
  retryMissing: () => Promise.resolve(),
  release: () => Promise.resolve(),
};

/**
 * Takes the slots it can for the lanes' holders in one statement (extending any they already hold) and keeps them:
 * renews their leases, retries missing ones now and then; `release` gives back those of every holder in `released`
 * (an earlier attempt may have had more lanes). Null when no lane got one: the workflow waits for a slot.
 */
export async function takeLaneSlots(
  deps: ActivityDeps,
  runId: string,
  holders: readonly string[],
  released: readonly string[],
): Promise<LaneSlots | null> {
  const acquire = async (wanted: readonly string[]): Promise<string[]> => {
    const cap = deps.config.WORKSPACE_EVAL_CONCURRENCY;
    const found = await acquireCaseSlots(deps.db, runId, wanted, cap, CASE_SLOT_LEASE_MS);
    if (!found)
      throw ApplicationFailure.nonRetryable(`eval run ${runId} no longer exists`, RUN_FAILURE.evalRunNotFound);
    return found.holders;
  };
  const held = new Set(await acquire(holders));
  if (held.size === 0) return null;

  // A renewal that fails is retried at the next tick; a lease that lapsed (its slot went elsewhere) is re-taken later.
  const renewal = setInterval(() => {
    renewCaseSlots(deps.db, runId, [...held], CASE_SLOT_LEASE_MS)
      .then((renewed) => {
        const still = new Set(renewed);
        for (const holder of held) if (!still.has(holder)) held.delete(holder);
      })
      .catch(() => undefined);
  }, CASE_SLOT_RENEW_MS);
  let retrying: Promise<void> | null = null;

  return {
    holds: (lane) => held.has(holders[lane]),
    retryMissing() {
      retrying ??= delay(LANE_RETRY_MS)
        .then(() => {
          const missing = holders.filter((holder) => !held.has(holder));
          return missing.length > 0 ? acquire(missing) : [];
        })
        .then((gained) => gained.forEach((holder) => held.add(holder)))
        .catch(() => undefined)
        .finally(() => (retrying = null));
      return retrying;
    },
    async release() {
      clearInterval(renewal);
      await releaseCaseSlots(deps.db, runId, released);
    },
  };
}
