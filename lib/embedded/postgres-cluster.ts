import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { hbaTrusts, passwordFile, readOrCreatePassword, readPassword, requirePasswords } from './postgres-password';
import { portOpen, startProcess, WaitAborted, waitFor, type ManagedProcess } from './process-utils';

/** A project-owned PostgreSQL cluster on loopback. */
export interface PostgresCluster {
  readonly url: string;
  stop(): Promise<void>;
}

/** The bin directory of the newest installed PostgreSQL (initdb, postgres, pg_dump). */
export function postgresBinDir(): string {
  const versions = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort() : [];
  const found = versions.reverse().find((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
  if (!found) throw new Error('PostgreSQL server binaries not found; run scripts/provision.sh');
  return `/usr/lib/postgresql/${found}/bin`;
}

// PostgreSQL refuses to run as root; setpriv switches user in place, so the pid we hold is the server's own.
function asPostgresUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]];
}

function ownByPostgres(dir: string): void {
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
}

// initdb (run as postgres) reads the password from a file of its own, removed as soon as it is done.
function initCluster(bin: string, dataDir: string, pgdata: string, password: string): void {
  fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  ownByPostgres(pgdata);
  const pwfile = `${passwordFile(dataDir)}.initdb`;
  fs.writeFileSync(pwfile, password, { mode: 0o600 });
  ownByPostgres(pwfile);
  try {
    const [cmd, args] = asPostgresUser(`${bin}/initdb`, [
      ...['-D', pgdata, '-U', 'assay', '-E', 'UTF8'],
      ...['--auth=scram-sha-256', `--pwfile=${pwfile}`],
    ]);
    execFileSync(cmd, args, { stdio: 'pipe' });
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

/**
 * Initialises (first time) and starts a cluster in `dataDir`, returning a URL to database `assay`. Logins need the
 * password generated at initdb into `dataDir/password` (0600, SCRAM); a cluster made with `trust` moves to it.
 */
export async function startPostgresCluster(dataDir: string, port: number): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const pgdata = path.join(dataDir, 'pgdata');
  fs.mkdirSync(dataDir, { recursive: true });
  const password = readOrCreatePassword(dataDir);
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) initCluster(bin, dataDir, pgdata, password);
  if (await portOpen(port)) throw new Error(`port ${port} is taken; set PG_PORT or DATABASE_URL`);
  const [cmd, args] = asPostgresUser(`${bin}/postgres`, [
    '-D',
    pgdata,
    '-p',
    String(port),
    '-k',
    pgdata,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=200',
  ]);
  const server: ManagedProcess = startProcess(cmd, args);
  const adminUrl = clusterUrl(port, password, 'postgres');
  await waitFor('postgres', async () => {
    if (server.child.exitCode !== null) throw new WaitAborted(`postgres exited: ${server.output()}`);
    return canConnect(adminUrl, dataDir);
  });
  if (hbaTrusts(pgdata)) {
    await requirePasswords(adminUrl, pgdata, password);
    // The reload is signalled, not awaited by the server: wait until a wrong password is really refused.
    await waitFor('postgres to require its password', () => refusesPassword(clusterUrl(port, 'wrong', 'postgres')));
  }
  await ensureDatabase(adminUrl, 'assay');
  return { url: clusterUrl(port, password, 'assay'), stop: () => server.stop('SIGINT') };
}

function clusterUrl(port: number, password: string | null, database: string): string {
  return `postgres://assay${password ? `:${password}` : ''}@127.0.0.1:${port}/${database}`;
}

/** The URL of database `assay` in the embedded cluster under `dataDir` (what `assay start` uses without DATABASE_URL). */
export function embeddedDatabaseUrl(dataDir: string, port: number): string {
  return clusterUrl(port, readPassword(dataDir), 'assay');
}

/** True when the server refuses the URL's password (28P01), false when it lets the login in. */
export async function refusesPassword(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === '28P01') return true;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// A refused password will not start working by waiting: stop at once, naming the file (never the password).
async function canConnect(url: string, dataDir: string): Promise<boolean> {
  if (await refusesPassword(url)) throw new WaitAborted(`postgres refused the password in ${passwordFile(dataDir)}`);
  return true;
}

/** Creates database `name` through the admin URL when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}
