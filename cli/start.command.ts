import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../lib/config';
import { startPostgresCluster } from '../lib/embedded/postgres-cluster';
import { startTemporalDevServer } from '../lib/embedded/temporal-dev-server';
import { createLogger } from '../lib/logger';
import { servesOnlyLoopback } from '../lib/loopback-host';
import { loadMasterKey } from '../lib/master-key';
import { openRuntime } from '../lib/runtime';
import { SEARCH_ATTRIBUTES } from '../workflows/temporal-names';
import { bootstrapDefaultWorkspace } from './bootstrap';
import { startBanner } from './start-banner';
import { prepareDatabase, startApi, startGateway, startWorker, stopOnSignal, type Service } from './services';

/** `assay start`: the whole platform on one machine, starting local Postgres and Temporal unless configured. */
export async function startCommand(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  fs.mkdirSync(config.dataDir, { recursive: true });
  // Read (or generated) before any child starts, so a bad key file stops start-up at once.
  loadMasterKey(config.ASSAY_MASTER_KEY, config.dataDir);
  const services: Service[] = [];
  const effective: Config = { ...config };
  const stopAll = async (): Promise<void> => {
    for (const service of [...services].reverse()) await service.stop().catch(() => undefined);
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    let temporalUi: string | null = config.TEMPORAL_UI_URL ?? null;
    if (!config.DATABASE_URL) {
      const pg = await startPostgresCluster(path.join(config.dataDir, 'postgres'), config.PG_PORT);
      services.push({ name: 'postgres', stop: pg.stop });
      effective.DATABASE_URL = pg.url;
    }
    if (!config.TEMPORAL_ADDRESS) {
      // The embedded Web UI reads encrypted payloads through the api's codec endpoint, which serves only the UI's origin.
      const apiUrl = config.ASSAY_PUBLIC_URL ?? `http://${config.ASSAY_HOST}:${config.ASSAY_PORT}`;
      if (!config.TEMPORAL_CODEC_ORIGINS.length) {
        effective.TEMPORAL_CODEC_ORIGINS = ['127.0.0.1', 'localhost'].map(
          (host) => `http://${host}:${config.TEMPORAL_UI_PORT}`,
        );
      }
      const temporal = await startTemporalDevServer({
        codecEndpoint: `${apiUrl}/codec`,
        port: config.TEMPORAL_PORT,
        uiPort: config.TEMPORAL_UI_PORT,
        namespace: config.TEMPORAL_NAMESPACE,
        dbFile: path.join(config.dataDir, 'temporal.sqlite'),
        searchAttributes: SEARCH_ATTRIBUTES,
      });
      services.push({ name: 'temporal', stop: temporal.stop });
      effective.TEMPORAL_ADDRESS = temporal.address;
      temporalUi = temporal.uiUrl;
    }
    const runtime = await openRuntime(effective);
    services.push({ name: 'runtime', stop: runtime.close });
    await prepareDatabase(effective, runtime);
    const { token } = await bootstrapDefaultWorkspace(runtime.db, config.TOKEN_MAX_DAYS);
    const embeddedTemporalUi = !config.TEMPORAL_ADDRESS;
    const api = await startApi(effective, runtime, logger, { embeddedTemporalUi });
    services.push(api);
    services.push(await startWorker(effective, runtime, logger));
    const gateway = await startGateway(effective, runtime, logger);
    services.push(gateway);
    process.removeAllListeners('SIGINT');
    stopOnSignal(services, logger);
    const codec = codecAccess(effective, embeddedTemporalUi);
    process.stdout.write(
      startBanner({ apiUrl: api.url, gatewayUrl: gateway.url, temporalUi, vault: runtime.vault.backend, token, codec }),
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
}

// Who may use the codec, in one line: without a token only the embedded UI, and only on a loopback-only api.
function codecAccess(config: Config, embeddedTemporalUi: boolean): string {
  const host = `ASSAY_HOST=${config.ASSAY_HOST}`;
  if (config.TEMPORAL_CODEC_ORIGINS.length === 0) return 'off (TEMPORAL_CODEC_ORIGINS is empty)';
  if (!embeddedTemporalUi) return 'operator token required (assay token create --operator)';
  if (servesOnlyLoopback(config))
    return `no token needed by the embedded Temporal UI while the api is loopback-only (${host})`;
  return `operator token required (${host} is not loopback-only; the embedded Temporal UI sends none)`;
}
