import { Context } from '@temporalio/activity';

const HEARTBEAT_EVERY_MS = 5_000;

/** Heartbeats while `work` runs, so a worker that dies mid-call is noticed within the heartbeat timeout. */
export async function withHeartbeat<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  const timer = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
