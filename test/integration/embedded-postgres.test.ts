import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { refusesPassword, startPostgresCluster, type PostgresCluster } from '../../lib/embedded/postgres-cluster';
import { hbaTrusts } from '../../lib/embedded/postgres-password';
import { freePort } from '../../lib/embedded/process-utils';

const withPassword = (url: string, password: string | null): string => {
  const parsed = new URL(url);
  parsed.password = password ?? '';
  return parsed.toString();
};

async function query(url: string, text: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

async function assertRefusedWithoutPassword(url: string): Promise<void> {
  // The server asks for SCRAM; without a password the client cannot even answer it.
  await assert.rejects(query(withPassword(url, null), 'SELECT 1'), /password/i);
  assert.equal(await refusesPassword(withPassword(url, 'not-the-password')), true);
}

describe('embedded Postgres: password (SCRAM) logins only', function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-pg-'));
  const dataDir = path.join(dir, 'postgres');
  const pgdata = path.join(dataDir, 'pgdata');
  const passwordFile = path.join(dataDir, 'password');
  let cluster: PostgresCluster | undefined;

  before(() => fs.chmodSync(dir, 0o755));
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('generates a password at initdb into a 0600 file, puts it in the URL and refuses logins without it', async () => {
    cluster = await startPostgresCluster(dataDir, await freePort());
    const password = fs.readFileSync(passwordFile, 'utf8');
    assert.equal(fs.statSync(passwordFile).mode & 0o777, 0o600);
    assert.match(password, /^[0-9a-f]{48}$/);
    assert.equal(decodeURIComponent(new URL(cluster.url).password), password);
    assert.deepEqual(await query(cluster.url, 'SELECT current_user AS who'), [{ who: 'assay' }]);
    await assertRefusedWithoutPassword(cluster.url);
    assert.equal(hbaTrusts(pgdata), false);
    assert.deepEqual(
      fs.readdirSync(dataDir).sort(),
      ['password', 'pgdata'],
      'the file initdb read the password from is gone',
    );
    await query(cluster.url, 'CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$made before$$)');
  });

  it('keeps its password and data across restarts', async () => {
    const password = fs.readFileSync(passwordFile, 'utf8');
    cluster = await startPostgresCluster(dataDir, await freePort());
    assert.equal(fs.readFileSync(passwordFile, 'utf8'), password);
    assert.deepEqual(await query(cluster.url, 'SELECT note FROM kept'), [{ note: 'made before' }]);
    await assertRefusedWithoutPassword(cluster.url);
  });

  it('moves a data dir made with trust (no password file, no role password) to passwords, keeping its data', async () => {
    // Made into what earlier versions left behind: trust rules, a superuser without a password, no password file.
    cluster = await startPostgresCluster(dataDir, await freePort());
    await query(cluster.url, 'ALTER ROLE assay PASSWORD NULL');
    await cluster.stop();
    cluster = undefined;
    const hba = path.join(pgdata, 'pg_hba.conf');
    fs.writeFileSync(hba, fs.readFileSync(hba, 'utf8').replace(/scram-sha-256\s*$/gm, 'trust'));
    fs.rmSync(passwordFile);
    assert.equal(hbaTrusts(pgdata), true);

    cluster = await startPostgresCluster(dataDir, await freePort());
    assert.equal(hbaTrusts(pgdata), false);
    assert.equal(decodeURIComponent(new URL(cluster.url).password), fs.readFileSync(passwordFile, 'utf8'));
    assert.deepEqual(await query(cluster.url, 'SELECT note FROM kept'), [{ note: 'made before' }]);
    await assertRefusedWithoutPassword(cluster.url);
  });
});
