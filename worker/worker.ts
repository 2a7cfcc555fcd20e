import { hostname } from 'node:os';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import { tracingWorkerInterceptors, workflowSpanSinks } from '../lib/telemetry/temporal-tracing';
import { ensureMaintenanceSchedules } from './maintenance-schedules';
import { startWorkerMetricsServer } from './metrics-server';
import { installTemporalRuntime } from './temporal-runtime';
import { createActivities } from '../activities';
import { createActivityDeps, type WorkerConnections } from '../activities/platform/activity-deps';

/** What the activities need from the outside world. */
export type WorkerDeps = WorkerConnections;

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  dataConverter: DataConverter;
  workflowBundle: WorkflowBundleOption;
  deps: WorkerDeps;
}

/** A created worker and the native connection it owns. */
export interface AssayWorker {
  worker: Worker;
  close(): Promise<void>;
}

/**
 * Creates the worker with every activity wired to real dependencies, ensures the Schedules of its task queue's upkeep
 * (the sweep of runs whose workflow closed, the purge of audit entries past their retention) and (with
 * WORKER_METRICS_PORT) serves its own /metrics.
 */
export async function createAssayWorker(options: WorkerOptions): Promise<AssayWorker> {
  installTemporalRuntime(options.deps.logger, options.deps.config);
  // First, so a port already taken fails the start before anything else runs.
  const metrics = await startWorkerMetricsServer(options.deps.config, options.deps.logger);
  const connection = await NativeConnection.connect({ address: options.address });
  // Set here rather than left to the SDK's default, so the activities can record who scored what.
  const identity = `${process.pid}@${hostname()}`;
  const client = new Client({ connection, namespace: options.namespace, dataConverter: options.dataConverter });
  const deps = createActivityDeps(options.deps, identity, client);
  const worker = await Worker.create({
    identity,
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: options.workflowBundle,
    dataConverter: options.dataConverter,
    activities: createActivities(deps),
    interceptors: tracingWorkerInterceptors(options.deps.tracing),
    sinks: workflowSpanSinks(options.deps.tracing),
    shutdownGraceTime: '10 seconds',
    // Heartbeats reach the server at least every 2 s (not 0.8 × the 20 s timeout): a cancelled run's batches hear of it
    // within seconds and stop calling the judge.
    maxHeartbeatThrottleInterval: '2 seconds',
    defaultHeartbeatThrottleInterval: '2 seconds',
  });
  await ensureMaintenanceSchedules(client, options.deps.config);
  return {
    worker,
    async close() {
      await metrics?.close();
      await connection.close();
      await deps.egress.close();
    },
  };
}
