import { spawn, type ChildProcess } from 'node:child_process';
import { listen } from '../../cli/http-server';
import { evalApi } from './eval-api';
import type { Harness } from './harness';
import { createTestPlatform, type TestPlatform } from './platform';
import type { ScriptedLlm } from './scripted-llm';
import { createTenant, type Tenant } from './tenants';

/** How a spawned `assay` command ended and what it printed. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A running `assay` command: the process (to signal it), its output so far, and its end. */
export interface CliProcess {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  done: Promise<CliResult>;
}

/** Spawns `node bin/assay.js ...args` with `env` over the test's environment. */
export function spawnAssay(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, ['bin/assay.js', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, output: () => ({ stdout, stderr }), done };
}

/** Runs `assay ...args` to its end. */
export function runAssay(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return spawnAssay(args, env).done;
}

/** A platform whose API listens on loopback for spawned commands, with a tenant and an agent judged by `llm`. */
export interface ServedPlatform {
  platform: TestPlatform;
  tenant: Tenant;
  api: ReturnType<typeof evalApi>;
  /** ASSAY_URL and ASSAY_TOKEN for a spawned command. */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** Serves a platform's API on a free loopback port for spawned commands, with a `role` tenant and its `agent`. */
export async function servedApi(platform: TestPlatform, role: string, agent: string): Promise<ServedPlatform> {
  const http = await listen(platform.app, '127.0.0.1', 0);
  const tenant = await createTenant(platform.runtime.db, role);
  const api = evalApi(platform.app, tenant);
  await api.agent(agent, 'gpt-4o');
  const url = `http://127.0.0.1:${(http.server.address() as { port: number }).port}`;
  return {
    platform,
    tenant,
    api,
    env: { ASSAY_URL: url, ASSAY_TOKEN: tenant.token },
    async close() {
      await http.close();
      await platform.close();
    },
  };
}

/** Starts a platform and a worker, serves the API on a free loopback port, and makes an `admin` tenant's `agent`. */
export async function servedPlatform(h: Harness, llm: ScriptedLlm, agent: string): Promise<ServedPlatform> {
  const platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
  await platform.startWorker();
  const served = await servedApi(platform, 'admin', agent);
  await served.api.connect('openai', `sk-${agent}-test-key`, llm.baseUrl);
  return served;
}
