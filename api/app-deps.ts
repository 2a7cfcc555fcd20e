import type { Tracer } from '@opentelemetry/api';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/database';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { Runtime } from '../lib/runtime';
import type { CredentialVault } from '../lib/vault/credential-vault';

/** Everything the HTTP layer talks to. */
export interface AppDeps {
  config: Config;
  db: Db;
  vault: CredentialVault;
  temporal: Client;
  logger: Logger;
  /** Set when traces are on: a server span per request (api/request-spans.ts). */
  tracer?: Tracer;
  /** Set by `assay start` when it runs the Temporal dev server, whose Web UI cannot send a token to the codec. */
  embeddedTemporalUi?: boolean;
}

/** The api's dependencies from a process's runtime: its Postgres, vault, Temporal client and (when on) tracer. */
export function runtimeAppDeps(config: Config, runtime: Runtime, logger: Logger): AppDeps {
  const { db, vault, tracing } = runtime;
  return { config, db, vault, temporal: runtime.temporal.client, logger, tracer: tracing?.tracer };
}
