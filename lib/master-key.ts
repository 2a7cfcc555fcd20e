import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

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
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

/** HKDF-SHA256 subkey of the root key for one purpose. */
export function deriveKey(masterKey: Buffer, purpose: KeyPurpose): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), `assay:${purpose}`, 32));
}
