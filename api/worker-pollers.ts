import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { logError } from '../lib/logger';
import type { AppDeps } from './app-deps';
import { HttpError } from './http-error';

/**
 * Whether a worker polls the api's task queue, asked of Temporal (DescribeTaskQueue, workflow pollers) before a
 * request waits on a worker, so that with none it answers 503 at once instead of a 504 after the workflow's timeout.
 */

/** A poller counts when it polled this recently: a live worker re-polls at least every minute (long-poll expiry). */
const POLLER_FRESH_MS = 90_000;
/** How long an answer is reused: a worker seen keeps counting; none seen is asked again after a short pause. */
const SEEN_TTL_MS = 10_000;
const NONE_TTL_MS = 2_000;
/** None seen: ask again for this long (a worker that is just starting polls within it), then answer 503. */
const CONFIRM_MS = 5_000;
const RETRY_MS = 500;
/** One DescribeTaskQueue call's deadline. */
const DESCRIBE_DEADLINE_MS = 3_000;

interface Answer {
  polling: boolean;
  until: number;
}

const answers = new WeakMap<Client, Map<string, Answer>>();

async function describePolling(client: Client, namespace: string, taskQueue: string): Promise<boolean> {
  const reply = await client.connection.withDeadline(Date.now() + DESCRIBE_DEADLINE_MS, () =>
    client.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    }),
  );
  const now = Date.now();
  return (reply.pollers ?? []).some((poller) => {
    const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
    return now - seconds * 1000 <= POLLER_FRESH_MS;
  });
}

// Asks until a poller shows up or CONFIRM_MS pass; a failed describe (Temporal down, no permission) is not an answer.
async function confirmPolling(deps: AppDeps, taskQueue: string): Promise<boolean | undefined> {
  const deadline = Date.now() + CONFIRM_MS;
  for (;;) {
    try {
      if (await describePolling(deps.temporal, deps.config.TEMPORAL_NAMESPACE, taskQueue)) return true;
    } catch (error) {
      deps.logger.warn({ ...logError(error), task_queue: taskQueue }, 'task queue pollers not described');
      return undefined;
    }
    if (Date.now() + RETRY_MS > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/**
 * Throws 503 `unavailable` when no worker polls the configured task queue. The answer is cached per client and
 * queue (a seen worker for 10 s, none for 2 s); when Temporal cannot say, the request goes ahead as before.
 */
export async function requirePollingWorker(deps: AppDeps): Promise<void> {
  const taskQueue = deps.config.TEMPORAL_TASK_QUEUE;
  const cache = answers.get(deps.temporal) ?? new Map<string, Answer>();
  answers.set(deps.temporal, cache);
  let answer = cache.get(taskQueue);
  if (!answer || answer.until < Date.now()) {
    const polling = await confirmPolling(deps, taskQueue);
    if (polling === undefined) return;
    answer = { polling, until: Date.now() + (polling ? SEEN_TTL_MS : NONE_TTL_MS) };
    cache.set(taskQueue, answer);
  }
  if (!answer.polling)
    throw new HttpError(
      503,
      'unavailable',
      `no worker is polling task queue ${taskQueue}: start a worker (assay worker) and retry`,
      { task_queue: taskQueue },
    );
}
