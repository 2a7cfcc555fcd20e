import type { Db } from '../../db/database';
import type { Config } from '../config';
import { deriveKey } from '../master-key';
import type { CredentialVault } from './credential-vault';
import { createLocalVault } from './local-vault';
import { createOpenBaoVault } from './openbao-vault';

/** Vault when VAULT_ADDR is set, else the embedded store in Postgres. */
export function createVault(config: Config, db: Db, masterKey: Buffer): CredentialVault {
  if (config.VAULT_ADDR && config.VAULT_TOKEN) {
    return createOpenBaoVault({ address: config.VAULT_ADDR, token: config.VAULT_TOKEN, mount: config.VAULT_KV_MOUNT });
  }
  return createLocalVault(db, deriveKey(masterKey, 'credential-store'));
}
