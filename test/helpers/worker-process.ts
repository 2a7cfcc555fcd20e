import path from 'node:path';
import { startProcess, WaitAborted, waitFor, type ManagedProcess } from '../../lib/embedded/process-utils';
import type { Harness } from './harness';

const BIN = path.resolve(__dirname, '../../bin/assay.js');

/** The whole environment of a production `assay` process on the harness's services: nothing inherited but PATH. */
export function productionEnv(h: Harness, taskQueue: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: h.databaseUrl,
    TEMPORAL_ADDRESS: h.temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    ASSAY_MASTER_KEY: h.masterKey.toString('base64'),
    ASSAY_DATA_DIR: h.tmpDir,
    EGRESS_ALLOWLIST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
}

/**
 * Spawns the production worker command (`assay worker`) as a child process configured only by its environment
 * (`env` adds settings, e.g. WORKSPACE_EVAL_CONCURRENCY).
 */
export async function spawnWorkerProcess(
  h: Harness,
  taskQueue: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ManagedProcess> {
  const worker = startProcess(process.execPath, [BIN, 'worker'], { env: { ...productionEnv(h, taskQueue), ...env } });
  try {
    await waitFor(
      'the worker to start',
      async () => {
        if (worker.child.exitCode !== null) throw new WaitAborted(`worker exited: ${worker.output()}`);
        return worker.output().includes('worker running');
      },
      90_000,
    );
  } catch (error) {
    await worker.stop('SIGKILL');
    throw error;
  }
  return worker;
}

/** Worker processes of one test: spawn as many as needed, stop every one at the end. */
export interface WorkerPool {
  spawn(): Promise<ManagedProcess>;
  stopAll(): Promise<void>;
}

/** A pool of `assay worker` processes on one task queue, each with `env` added to its production environment. */
export function workerPool(h: Harness, taskQueue: string, env: NodeJS.ProcessEnv = {}): WorkerPool {
  const workers: ManagedProcess[] = [];
  return {
    async spawn() {
      const worker = await spawnWorkerProcess(h, taskQueue, env);
      workers.push(worker);
      return worker;
    },
    async stopAll() {
      for (const worker of workers.splice(0)) await worker.stop('SIGTERM');
    },
  };
}
