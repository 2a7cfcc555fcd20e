import type { Client } from '@temporalio/client';
import type { Config } from '../lib/config';
import { ensureIntervalSchedule } from '../lib/temporal/schedules';
import type { auditPurgeWorkflow, runSweepWorkflow } from '../workflows/maintenance.workflow';
import { workflowIds } from '../workflows/temporal-names';

/** How often the audit trail is purged: entries are kept by the day, so an hour late is no matter. */
const AUDIT_PURGE_INTERVAL_MS = 60 * 60_000;

/**
 * The Schedules of the periodic upkeep on this worker's task queue: the sweep of unfinished runs every
 * `RUN_SWEEP_SECONDS` and the audit purge hourly. Every worker ensures them at start (idempotent), so N workers run
 * each pass once, as the MCP health checks do, instead of N timers.
 */
export async function ensureMaintenanceSchedules(client: Client, config: Config): Promise<void> {
  const taskQueue = config.TEMPORAL_TASK_QUEUE;
  const sweepId = workflowIds.runSweep(taskQueue);
  await ensureIntervalSchedule<typeof runSweepWorkflow>(client, sweepId, config.RUN_SWEEP_SECONDS * 1000, {
    type: 'startWorkflow',
    workflowType: 'runSweepWorkflow',
    workflowId: sweepId,
    taskQueue,
    args: [{}],
    // A pass no worker picks up does not wait past a few minutes.
    workflowExecutionTimeout: '15 minutes',
  });
  const purgeId = workflowIds.auditPurge(taskQueue);
  await ensureIntervalSchedule<typeof auditPurgeWorkflow>(client, purgeId, AUDIT_PURGE_INTERVAL_MS, {
    type: 'startWorkflow',
    workflowType: 'auditPurgeWorkflow',
    workflowId: purgeId,
    taskQueue,
    args: [{}],
    workflowExecutionTimeout: '15 minutes',
  });
}
