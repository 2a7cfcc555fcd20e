import { loadConfig } from '../lib/config';
import { createLogger } from '../lib/logger';
import { requireSharedMasterKey } from '../lib/master-key';
import { openRuntime } from '../lib/runtime';
import { prepareDatabase, startApi, startWorker, stopOnSignal } from './services';

/** `assay api`: the HTTP api alone, against configured Postgres, Temporal and credential store. */
export async function apiCommand(): Promise<void> {
  const config = loadConfig();
  if (config.DATABASE_URL) requireSharedMasterKey(config.ASSAY_MASTER_KEY, 'assay api');
  const logger = createLogger(config.LOG_LEVEL);
  const runtime = await openRuntime(config);
  await prepareDatabase(config, runtime);
  const api = await startApi(config, runtime, logger);
  stopOnSignal([{ name: 'runtime', stop: runtime.close }, api], logger);
  logger.info({ url: api.url }, 'api listening');
}

/** `assay worker`: one Temporal worker, against configured services. */
export async function workerCommand(): Promise<void> {
  const config = loadConfig();
  if (config.DATABASE_URL) requireSharedMasterKey(config.ASSAY_MASTER_KEY, 'assay worker');
  const logger = createLogger(config.LOG_LEVEL);
  const runtime = await openRuntime(config);
  const worker = await startWorker(config, runtime, logger);
  stopOnSignal([{ name: 'runtime', stop: runtime.close }, worker], logger);
  logger.info({ task_queue: config.TEMPORAL_TASK_QUEUE }, 'worker running');
}

/** `assay migrate`: brings the schema up to date and exits. */
export async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  const runtime = await openRuntime(config);
  await prepareDatabase(config, runtime);
  await runtime.close();
}
