import { proxyActivities } from '@temporalio/workflow';
import type { PlatformActivities } from '../activities/platform.activities';

const { ping } = proxyActivities<PlatformActivities>({ startToCloseTimeout: '10 seconds' });

export interface PingInput {
  message: string;
  /** Make the activity fail with the message, to check failures are encrypted like results. */
  fail?: boolean;
}

/** Round-trips a message through an activity: proves client, worker and codec agree. */
export async function pingWorkflow(input: PingInput): Promise<{ message: string; worker_pid: number }> {
  return ping({ message: input.message, fail: input.fail });
}
