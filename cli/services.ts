import { createApp } from '../api/app';
import { runtimeAppDeps, type AppDeps } from '../api/app-deps';
import { attachEvalRelay } from '../api/ws/eval-relay';
import { migrateToLatest } from '../db/migrate';
import { seedMcpCatalog } from '../lib/mcp/catalog-seed';
import { createGateway } from '../gateway/gateway-app';
import type { Config } from '../lib/config';
import { logError, type Logger } from '../lib/logger';
import type { Runtime } from '../lib/runtime';
import { createAssayWorker } from '../worker/worker';
import { loadWorkflowBundle } from '../worker/workflow-bundle';
import { listen } from './http-server';

/** A running part of Assay that can be stopped. */
export interface Service {
  name: string;
  stop(): Promise<void>;
}

/** Runs migrations and seeds the MCP catalog; every process that owns the schema calls this before serving. */
export async function prepareDatabase(config: Config, runtime: Runtime): Promise<void> {
  await migrateToLatest(runtime.db);
  await seedMcpCatalog(runtime.db, config);
}

/** Starts the HTTP api (and its WebSocket endpoint) on the configured host and port. */
export async function startApi(
  config: Config,
  runtime: Runtime,
  logger: Logger,
  options: Pick<AppDeps, 'embeddedTemporalUi'> = {},
): Promise<Service & { url: string }> {
  const app = createApp({ ...runtimeAppDeps(config, runtime, logger), ...options });
  const http = await listen(app, config.ASSAY_HOST, config.ASSAY_PORT);
  const relay = attachEvalRelay(http.server, { config, db: runtime.db, logger });
  const address = http.server.address();
  const port = typeof address === 'object' && address ? address.port : config.ASSAY_PORT;
  const stop = async (): Promise<void> => {
    // Upgraded sockets keep the HTTP server open, so the relay closes them first.
    await relay.close();
    await http.close();
  };
  return { name: 'api', url: config.ASSAY_PUBLIC_URL ?? `http://${config.ASSAY_HOST}:${port}`, stop };
}

/** Starts the MCP gateway on ASSAY_HOST:ASSAY_GATEWAY_PORT; stop() closes its sessions and pooled children. */
export async function startGateway(
  config: Config,
  runtime: Runtime,
  logger: Logger,
): Promise<Service & { url: string }> {
  const gateway = createGateway({ config, logger, ...runtime });
  const http = await listen(gateway.app, config.ASSAY_HOST, config.ASSAY_GATEWAY_PORT);
  const address = http.server.address();
  const port = typeof address === 'object' && address ? address.port : config.ASSAY_GATEWAY_PORT;
  return {
    name: 'gateway',
    url: `http://${config.ASSAY_HOST}:${port}/mcp/agents/{agent}`,
    async stop() {
      await gateway.close();
      await http.close();
    },
  };
}

/** Starts a worker on the configured task queue; stop() drains it gracefully. */
export async function startWorker(config: Config, runtime: Runtime, logger: Logger): Promise<Service> {
  const workflowBundle = await loadWorkflowBundle();
  const source = 'codePath' in workflowBundle ? workflowBundle.codePath : 'bundled at start';
  logger.info({ workflow_bundle: source }, 'workflow bundle loaded');
  const worker = await createAssayWorker({
    address: runtime.temporalAddress,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    dataConverter: runtime.dataConverter,
    workflowBundle,
    deps: { db: runtime.db, vault: runtime.vault, logger, config, tracing: runtime.tracing },
  });
  const running = worker.worker.run();
  return {
    name: 'worker',
    async stop() {
      if (worker.worker.getState() === 'RUNNING') worker.worker.shutdown();
      await running;
      await worker.close();
    },
  };
}

/** Stops services in reverse order on the first SIGINT or SIGTERM, then exits 0. */
export function stopOnSignal(
  services: Service[],
  logger: Logger,
  after: () => Promise<void> = async () => undefined,
): void {
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    for (const service of [...services].reverse()) {
      logger.info({ component: service.name }, 'stopping');
      await service
        .stop()
        .catch((error: unknown) => logger.error({ component: service.name, ...logError(error) }, 'stop failed'));
    }
    await after();
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
}
