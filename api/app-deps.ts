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
}
