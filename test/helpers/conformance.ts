import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, portOpen, startProcess, waitFor, type ManagedProcess } from '../../lib/embedded/process-utils';

/** The conformance suite's reference "everything" server, vendored (see test/fixtures/conformance/README.md). */
const REFERENCE_SERVER = path.resolve(__dirname, '../fixtures/conformance/everything-server.ts');
/** The pinned suite's command (`@modelcontextprotocol/conformance`, a devDependency). */
const CONFORMANCE_BIN = path.resolve(__dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The reference server on loopback; stop() kills it by pid. */
export interface ReferenceServer {
  url: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** Spawns the reference everything server (under tsx) on a free port and waits until it listens. */
export async function startReferenceServer(): Promise<ReferenceServer> {
  const port = await freePort();
  const child = startProcess(process.execPath, ['--import', 'tsx', REFERENCE_SERVER], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
  });
  await waitFor(`reference everything server on ${port}`, () => portOpen(port), 60_000).catch((error: Error) => {
    throw new Error(`${error.message}\n${child.output()}`);
  });
  return { url: `http://127.0.0.1:${port}/mcp`, process: child, stop: () => child.stop('SIGKILL') };
}

/** One check of one scenario, as the suite writes it to `<output-dir>/<scenario>-<time>/checks.json`. */
export interface ConformanceCheck {
  scenario: string;
  id: string;
  status: string;
  errorMessage?: string;
  details?: unknown;
}

/** Runs `conformance server --url <url> --spec-version <version>` and answers every check it wrote, by scenario. */
export async function runServerConformance(url: string, specVersion = '2025-11-25'): Promise<ConformanceCheck[]> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'assay-conformance-'));
  try {
    const args = [CONFORMANCE_BIN, 'server', '--url', url, '--spec-version', specVersion, '-o', outDir];
    // The suite exits non-zero when a check fails; the checks written are the verdict, so read them either way.
    await promisify(execFile)(process.execPath, args, { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: Error & { stdout?: string }) => {
        if (!(error as { code?: unknown }).code) throw error;
      },
    );
    const checks: ConformanceCheck[] = [];
    for (const dir of await readdir(outDir)) {
      const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
      const written = JSON.parse(await readFile(path.join(outDir, dir, 'checks.json'), 'utf8')) as ConformanceCheck[];
      checks.push(...written.map((check) => ({ ...check, scenario })));
    }
    return checks;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
