import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
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

/** Initialises (first time) and starts a cluster in `dataDir`, returning a URL to database `assay`. */
export async function startPostgresCluster(dataDir: string, port: number): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const pgdata = path.join(dataDir, 'pgdata');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) {
    fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
    ownByPostgres(pgdata);
    const [cmd, args] = asPostgresUser(`${bin}/initdb`, ['-D', pgdata, '-U', 'assay', '--auth=trust', '-E', 'UTF8']);
    execFileSync(cmd, args, { stdio: 'pipe' });
  }
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
  const adminUrl = `postgres://assay@127.0.0.1:${port}/postgres`;
  await waitFor('postgres', async () => {
    if (server.child.exitCode !== null) throw new WaitAborted(`postgres exited: ${server.output()}`);
    return canConnect(adminUrl);
  });
  await ensureDatabase(adminUrl, 'assay');
  return { url: embeddedDatabaseUrl(port), stop: () => server.stop('SIGINT') };
}

/** The URL of database `assay` in the embedded cluster (what `assay start` uses when DATABASE_URL is unset). */
export function embeddedDatabaseUrl(port: number): string {
  return `postgres://assay@127.0.0.1:${port}/assay`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
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
