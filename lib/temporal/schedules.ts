import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptions,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';

/**
 * Creates a schedule that starts `action` every `everyMs`, or sets the interval of the one already there: every
 * process that needs it may call this at start, and the periodic work still runs once per interval, not once per
 * process. One run at a time; after an outage one catch-up run, not one per missed interval.
 */
export async function ensureIntervalSchedule<W extends Workflow>(
  client: Client,
  scheduleId: string,
  everyMs: number,
  action: ScheduleOptionsStartWorkflowAction<W>,
): Promise<void> {
  const spec = { intervals: [{ every: everyMs }] };
  const options: ScheduleOptions<ScheduleOptionsStartWorkflowAction<W>> = {
    scheduleId,
    spec,
    action,
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
  };
  try {
    await client.schedule.create(options);
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec }));
  }
}

/** Deletes a schedule; one already gone is no error (a retry, or a server removed twice). Answers whether it existed. */
export async function deleteScheduleIfExists(client: Client, scheduleId: string): Promise<boolean> {
  try {
    await client.schedule.getHandle(scheduleId).delete();
    return true;
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return false;
    throw error;
  }
}
