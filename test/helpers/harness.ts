import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createDb, type Db } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { ensureDatabase, startPostgresCluster } from '../../lib/embedded/postgres-cluster';
import { startOpenBaoDevServer } from '../../lib/embedded/openbao-dev-server';
import { freePort } from '../../lib/embedded/process-utils';
import { startTemporalDevServer } from '../../lib/embedded/temporal-dev-server';
import { bundleWorkflows } from '../../worker/workflow-bundle';
import { SEARCH_ATTRIBUTES } from '../../workflows/temporal-names';

/** The real services one test run shares: a fresh database, one Temporal dev server, one OpenBao dev server. */
export interface Harness {
  tmpDir: string;
  databaseUrl: string;
  db: Db;
  temporalAddress: string;
  openbao: { address: string; token: string };
  workflowBundle: WorkflowBundleWithSourceMap;
  masterKey: Buffer;
}

const stops: Array<() => Promise<unknown>> = [];
let started: Promise<Harness> | undefined;

async function startPostgres(tmpDir: string): Promise<string> {
  const name = `assay_test_${Date.now()}_${process.pid}`;
  if (process.env.DATABASE_URL) {
    const admin = new URL(process.env.DATABASE_URL);
    await ensureDatabase(admin.toString(), name);
    admin.pathname = `/${name}`;
    return admin.toString();
  }
  const cluster = await startPostgresCluster(path.join(tmpDir, 'pg'), await freePort());
  stops.push(() => cluster.stop());
  await ensureDatabase(cluster.url, name);
  return cluster.url.replace(/\/assay$/, `/${name}`);
}

async function startTemporal(): Promise<string> {
  if (process.env.TEMPORAL_ADDRESS) return process.env.TEMPORAL_ADDRESS;
  const server = await startTemporalDevServer({
    port: await freePort(),
    namespace: 'default',
    searchAttributes: SEARCH_ATTRIBUTES,
  });
  stops.push(() => server.stop());
  return server.address;
}

async function startVault(): Promise<{ address: string; token: string }> {
  if (process.env.VAULT_ADDR && process.env.VAULT_TOKEN)
    return { address: process.env.VAULT_ADDR, token: process.env.VAULT_TOKEN };
  const server = await startOpenBaoDevServer(crypto.randomBytes(16).toString('hex'));
  stops.push(() => server.stop());
  return { address: server.address, token: server.token };
}

async function start(): Promise<Harness> {
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-test-'));
  fs.chmodSync(tmpDir, 0o755);
  stops.push(async () => fs.rmSync(tmpDir, { recursive: true, force: true }));
  const [databaseUrl, temporalAddress, openbao, workflowBundle] = await Promise.all([
    startPostgres(tmpDir),
    startTemporal(),
    startVault(),
    bundleWorkflows(),
  ]);
  const db = createDb(databaseUrl, 20);
  stops.push(() => db.destroy());
  await migrateToLatest(db);
  return { tmpDir, databaseUrl, db, temporalAddress, openbao, workflowBundle, masterKey: crypto.randomBytes(32) };
}

/**
 * A migrated database of its own on the harness's cluster, for a test whose checks read whole tables (the fuzz
 * suite fingerprints every row after each refused request), so the rows earlier tests left cost it nothing.
 */
export async function ownDatabase(h: Harness, label: string): Promise<string> {
  const url = new URL(h.databaseUrl);
  const name = `${url.pathname.slice(1)}_${label}`;
  await ensureDatabase(url.toString(), name);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), 2);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  return url.toString();
}

/** Starts the shared services on first use; later calls get the same ones. */
export function harness(): Promise<Harness> {
  started ??= start();
  return started;
}

/** Stops everything the harness started, newest first. */
export async function stopHarness(): Promise<void> {
  if (!started) return;
  await started.catch(() => undefined);
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  started = undefined;
}
