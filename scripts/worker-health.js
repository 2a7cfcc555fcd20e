#!/usr/bin/env node
// The worker container's health check (docker-compose.yml): exit 0 when a worker of this host (identity
// `<pid>@<hostname>`, as worker/worker.ts sets it) polled the task queue in the last two minutes, else 1.
// Reads TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and TEMPORAL_TASK_QUEUE as the worker does.
const os = require('node:os');
const { Connection } = require('@temporalio/client');

const RECENT_MS = 120_000;

async function main() {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  try {
    const { pollers } = await connection.workflowService.describeTaskQueue({
      namespace: process.env.TEMPORAL_NAMESPACE || 'default',
      taskQueue: { name: process.env.TEMPORAL_TASK_QUEUE || 'assay' },
      taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
    });
    const suffix = `@${os.hostname()}`;
    const recent = (pollers ?? []).some((poller) => {
      const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
      return poller.identity?.endsWith(suffix) && Date.now() - seconds * 1000 < RECENT_MS;
    });
    if (!recent) console.error(`no poller ${suffix} on the task queue in the last ${RECENT_MS / 1000} s`);
    return recent ? 0 : 1;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`worker health: ${error.message}`);
    process.exit(1);
  },
);
