import { proxyActivities } from '@temporalio/workflow';
import { PING_ACTIVITY } from './activity-options';
import type { Activities } from '../activities';

const { ping } = proxyActivities<Activities>(PING_ACTIVITY);

export interface PingInput {
  message: string;
  /** Make the activity fail with the message, to check failures are encrypted like results. */
  fail?: boolean;
}

/** Round-trips a message through an activity: proves client, worker and codec agree. */
export async function pingWorkflow(input: PingInput): Promise<{ message: string; worker_pid: number }> {
  return ping({ message: input.message, fail: input.fail });
}
