import { loadConfig, type Config } from '../lib/config';
import { createLogger, type Logger } from '../lib/logger';
import { requireSharedMasterKey } from '../lib/master-key';
import { openRuntime, type Runtime } from '../lib/runtime';
import { prepareDatabase, startApi, startGateway, startWorker, stopOnSignal, type Service } from './services';

/**
 * Runs one service alone against configured Postgres, Temporal and credential store until SIGINT or SIGTERM, and logs
 * `message` with what `describe` says once it runs.
 */
async function runAlone<S extends Service>(
  command: string,
  start: (config: Config, runtime: Runtime, logger: Logger) => Promise<S>,
  message: string,
  describe: (service: S, config: Config) => object,
): Promise<void> {
  const config = loadConfig();
  if (config.DATABASE_URL) requireSharedMasterKey(config.ASSAY_MASTER_KEY, command);
  const logger = createLogger(config.LOG_LEVEL);
  const runtime = await openRuntime(config);
  const service = await start(config, runtime, logger);
  stopOnSignal([{ name: 'runtime', stop: runtime.close }, service], logger);
  logger.info(describe(service, config), message);
}

/** `assay api`: the HTTP api alone, against configured Postgres, Temporal and credential store. */
export async function apiCommand(): Promise<void> {
  const start = async (config: Config, runtime: Runtime, logger: Logger) => {
    await prepareDatabase(config, runtime);
    return startApi(config, runtime, logger);
  };
  await runAlone('assay api', start, 'api listening', (api) => ({ url: api.url }));
}

/** `assay worker`: one Temporal worker, against configured services. */
export async function workerCommand(): Promise<void> {
  await runAlone('assay worker', startWorker, 'worker running', (_, config) => ({
    task_queue: config.TEMPORAL_TASK_QUEUE,
  }));
}

/** `assay gateway`: the MCP gateway alone (scaled like workers), against configured services. */
export async function gatewayCommand(): Promise<void> {
  await runAlone('assay gateway', startGateway, 'gateway listening', (gateway) => ({ url: gateway.url }));
}

/** `assay migrate`: brings the schema up to date and exits. */
export async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  const runtime = await openRuntime(config);
  await prepareDatabase(config, runtime);
  await runtime.close();
}
