import { ScheduleNotFoundError, type Client } from '@temporalio/client';

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
