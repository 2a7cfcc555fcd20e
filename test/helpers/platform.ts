import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import { createApp } from '../../api/app';
import { listen } from '../../cli/http-server';
import { runtimeAppDeps } from '../../api/app-deps';
import { loadConfig, type Config } from '../../lib/config';
import { createLogger, type Logger } from '../../lib/logger';
import { seedMcpCatalog } from '../../lib/mcp/catalog-seed';
import { openRuntime, type Runtime } from '../../lib/runtime';
import { deleteScheduleIfExists } from '../../lib/temporal/schedules';
import { workflowIds } from '../../workflows/temporal-names';
import { createAssayWorker, type AssayWorker } from '../../worker/worker';
import type { Harness } from './harness';

/** An api app and (optionally) a worker wired exactly as in production, on the harness's services. */
export interface TestPlatform {
  config: Config;
  runtime: Runtime;
  app: Express;
  logger: Logger;
  logs: string[];
  startWorker(): Promise<AssayWorker & { running: Promise<void> }>;
  close(): Promise<void>;
}

// The shared Temporal server outlives the test database: the schedules this platform's servers got go with it.
async function deleteHealthSchedules(runtime: Runtime, taskQueue: string): Promise<void> {
  const servers = await runtime.db.selectFrom('mcp_servers').select('id').execute();
  for (const { id } of servers) {
    const handle = runtime.temporal.client.schedule.getHandle(workflowIds.mcpHealth(id));
    const description = await handle.describe().catch(() => undefined);
    if (description?.action.taskQueue === taskQueue)
      await deleteScheduleIfExists(runtime.temporal.client, handle.scheduleId);
  }
}

/** The api on a platform's services with some settings changed (`embeddedTemporalUi`: as `assay start` builds it). */
export function appWithConfig(platform: TestPlatform, config: Partial<Config>, embeddedTemporalUi = false): Express {
  return createApp({
    config: { ...platform.config, ...config },
    db: platform.runtime.db,
    vault: platform.runtime.vault,
    temporal: platform.runtime.temporal.client,
    logger: platform.logger,
    embeddedTemporalUi,
  });
}

/** Builds the platform; `vault: 'openbao'` uses the real OpenBao dev server, else the embedded store. */
export async function createTestPlatform(
  h: Harness,
  options: { vault?: 'openbao' | 'local'; env?: NodeJS.ProcessEnv } = {},
): Promise<TestPlatform> {
  const config = loadConfig({
    DATABASE_URL: h.databaseUrl,
    TEMPORAL_ADDRESS: h.temporalAddress,
    TEMPORAL_TASK_QUEUE: `assay-test-${Math.random().toString(36).slice(2)}`,
    ASSAY_MASTER_KEY: h.masterKey.toString('base64'),
    ASSAY_DATA_DIR: h.tmpDir,
    LOG_LEVEL: 'debug',
    ...(options.vault === 'openbao' ? { VAULT_ADDR: h.openbao.address, VAULT_TOKEN: h.openbao.token } : {}),
    ...options.env,
  });
  const logs: string[] = [];
  const logger = createLogger(
    config.LOG_LEVEL,
    new Writable({
      write: (chunk, _enc, done) => {
        logs.push(String(chunk));
        done();
      },
    }),
  );
  const runtime = await openRuntime(config);
  await seedMcpCatalog(runtime.db, config);
  const app = createApp(runtimeAppDeps(config, runtime, logger));
  const workers: Array<AssayWorker & { running: Promise<void> }> = [];
  return {
    config,
    runtime,
    app,
    logger,
    logs,
    async startWorker() {
      const worker = await createAssayWorker({
        address: h.temporalAddress,
        namespace: config.TEMPORAL_NAMESPACE,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        dataConverter: runtime.dataConverter,
        workflowBundle: h.workflowBundle,
        deps: { db: runtime.db, vault: runtime.vault, logger, config, tracing: runtime.tracing },
      });
      const handle = { ...worker, running: worker.worker.run() };
      workers.push(handle);
      return handle;
    },
    async close() {
      await deleteHealthSchedules(runtime, config.TEMPORAL_TASK_QUEUE);
      for (const id of [workflowIds.runSweep, workflowIds.auditPurge])
        await deleteScheduleIfExists(runtime.temporal.client, id(config.TEMPORAL_TASK_QUEUE));
      for (const w of workers) {
        if (w.worker.getState() === 'RUNNING') w.worker.shutdown();
        await w.running;
        await w.close();
      }
      await runtime.close();
    },
  };
}

/** Serves a platform's api on 127.0.0.1 and a free port, as `assay api` serves it (without the relay). */
export async function servePlatform(platform: TestPlatform): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const served = await listen(platform.app, '127.0.0.1', 0);
  return { baseUrl: `http://127.0.0.1:${(served.server.address() as AddressInfo).port}`, close: served.close };
}
