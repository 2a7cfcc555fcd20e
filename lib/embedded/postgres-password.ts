import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

/** The file (mode 0600) beside `pgdata` that holds the password of the embedded cluster's superuser `assay`. */
export function passwordFile(dataDir: string): string {
  return path.join(dataDir, 'password');
}

/** The cluster's password, read from its file; null for a cluster made before passwords (trust) and not started since. */
export function readPassword(dataDir: string): string | null {
  const file = passwordFile(dataDir);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : null;
}

/** The stored password, or a new random one written first (0600), so a crash later never loses it. */
export function readOrCreatePassword(dataDir: string): string {
  const existing = readPassword(dataDir);
  if (existing) return existing;
  const password = crypto.randomBytes(24).toString('hex');
  const file = passwordFile(dataDir);
  fs.writeFileSync(`${file}.tmp`, password, { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
  return password;
}

const TRUST_LINE = /^(\s*(?:local|host\w*)\s.*\s)trust(\s*)$/;

/** True while pg_hba.conf lets anyone in without a password (clusters initialised with `--auth=trust`). */
export function hbaTrusts(pgdata: string): boolean {
  return fs
    .readFileSync(path.join(pgdata, 'pg_hba.conf'), 'utf8')
    .split('\n')
    .some((line) => TRUST_LINE.test(line));
}

/**
 * Moves a trust cluster to passwords: sets the superuser's password (stored as a SCRAM verifier), then rewrites
 * every `trust` rule to `scram-sha-256` and reloads. In this order, a crash in between leaves a cluster that still
 * trusts and is moved again on the next start, never one nobody can log in to.
 */
export async function requirePasswords(adminUrl: string, pgdata: string, password: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`SET password_encryption = 'scram-sha-256'`);
    await client.query(`ALTER ROLE CURRENT_USER PASSWORD ${client.escapeLiteral(password)}`);
    const hba = path.join(pgdata, 'pg_hba.conf');
    const rewritten = fs
      .readFileSync(hba, 'utf8')
      .split('\n')
      .map((line) => line.replace(TRUST_LINE, '$1scram-sha-256$2'))
      .join('\n');
    const { mode, uid, gid } = fs.statSync(hba);
    fs.writeFileSync(`${hba}.tmp`, rewritten, { mode });
    fs.chownSync(`${hba}.tmp`, uid, gid);
    fs.renameSync(`${hba}.tmp`, hba);
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
}
