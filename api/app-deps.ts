import type { Client } from '@temporalio/client';
import type { Db } from '../db/database';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { CredentialVault } from '../lib/vault/credential-vault';

/** Everything the HTTP layer talks to. */
export interface AppDeps {
  config: Config;
  db: Db;
  vault: CredentialVault;
  temporal: Client;
  logger: Logger;
  /** Set by `assay start` when it runs the Temporal dev server, whose Web UI cannot send a token to the codec. */
  embeddedTemporalUi?: boolean;
}
