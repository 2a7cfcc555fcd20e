import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, MASTER_KEY_BASE64 } from './config';

/** Purposes a subkey is derived for; each gets its own key so one leak does not open the other. */
export type KeyPurpose = 'credential-store' | 'temporal-payload';

/** The 32-byte root key: ASSAY_MASTER_KEY when set, else a generated key file (mode 0600) under the data dir. */
export function loadMasterKey(masterKeyBase64: string | undefined, dataDir: string): Buffer {
  if (masterKeyBase64) return Buffer.from(masterKeyBase64, 'base64');
  const file = path.join(dataDir, 'master.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  const stored = fs.readFileSync(file, 'utf8').trim();
  // Checked, not decoded leniently: a truncated or edited file would otherwise give a short key that opens nothing.
  if (!MASTER_KEY_BASE64.test(stored)) throw new ConfigError(file, 'must hold 32 bytes, base64-encoded');
  return Buffer.from(stored, 'base64');
}

/**
 * `assay api` and `assay worker` run beside other api and worker processes: each generating its own key would leave
 * one unable to read what another encrypted, so they take the shared ASSAY_MASTER_KEY and never generate one.
 */
export function requireSharedMasterKey(masterKeyBase64: string | undefined, command: string): void {
  if (masterKeyBase64) return;
  throw new ConfigError(
    'ASSAY_MASTER_KEY',
    `is required by ${command} against external services: two processes must never generate two keys ` +
      '(one could not read what the other encrypted). Set the same 32 random bytes, base64, on every api and worker',
  );
}

/** HKDF-SHA256 subkey of the root key for one purpose. */
export function deriveKey(masterKey: Buffer, purpose: KeyPurpose): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), `assay:${purpose}`, 32));
}
