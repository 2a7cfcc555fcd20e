import { hostname } from 'node:os';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import { startAuditRetention } from './audit-retention';
import { tracingWorkerInterceptors, workflowSpanSinks } from '../lib/telemetry/temporal-tracing';
import { startRunReconciler } from './run-reconciler';
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
 * Creates the worker with every activity wired to real dependencies, its sweep of runs whose workflow closed, its
 * purge of audit entries past their retention and (with WORKER_METRICS_PORT) its own /metrics.
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
  const reconciler = startRunReconciler({
    db: options.deps.db,
    client,
    logger: options.deps.logger,
    intervalMs: options.deps.config.RUN_SWEEP_SECONDS * 1000,
  });
  const auditRetention = startAuditRetention({
    db: options.deps.db,
    logger: options.deps.logger,
    retentionDays: options.deps.config.AUDIT_RETENTION_DAYS,
  });
  return {
    worker,
    async close() {
      await auditRetention.stop();
      await reconciler.stop();
      await metrics?.close();
      await connection.close();
      await deps.egress.close();
    },
  };
}
