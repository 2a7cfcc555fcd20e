import type { DataConverter } from '@temporalio/common';
import { createDb, type Db } from '../db/database';
import { ConfigError, type Config } from './config';
import { deriveKey, loadMasterKey } from './master-key';
import { createTracing, type Tracing } from './telemetry/tracing';
import { createDataConverter } from './temporal/data-converter';
import { connectTemporal, type TemporalHandle } from './temporal/temporal-client';
import type { CredentialVault } from './vault/credential-vault';
import { createVault } from './vault/create-vault';

/** The connections a process (api or worker) holds to the outside world. */
export interface Runtime {
  db: Db;
  vault: CredentialVault;
  temporal: TemporalHandle;
  temporalAddress: string;
  dataConverter: DataConverter;
  /** Null unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set. */
  tracing: Tracing | null;
  close(): Promise<void>;
}

/** Opens Postgres, the credential vault and a Temporal client from configuration. */
export async function openRuntime(config: Config): Promise<Runtime> {
  if (!config.DATABASE_URL) throw new ConfigError('DATABASE_URL', 'is required');
  if (!config.TEMPORAL_ADDRESS) throw new ConfigError('TEMPORAL_ADDRESS', 'is required');
  const masterKey = loadMasterKey(config.ASSAY_MASTER_KEY, config.dataDir);
  const db = createDb(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const dataConverter = createDataConverter(deriveKey(masterKey, 'temporal-payload'));
  const tracing = createTracing(config);
  const temporal = await connectTemporal(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, dataConverter, tracing);
  return {
    db,
    vault: createVault(config, db, masterKey),
    temporal,
    temporalAddress: config.TEMPORAL_ADDRESS,
    dataConverter,
    tracing,
    async close() {
      try {
        await temporal.close();
      } finally {
        await db.destroy();
        await tracing?.shutdown();
      }
    },
  };
}
