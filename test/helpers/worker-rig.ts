import { harness, type Harness } from './harness';
import { createTestPlatform, type TestPlatform } from './platform';
import { startScriptedLlm, type ScriptHandler, type ScriptedLlm } from './scripted-llm';
import { workerPool, type WorkerPool } from './worker-process';

/** A platform served to `assay worker` processes of a pool, and the scripted LLM they call. */
export interface WorkerRig {
  platform: TestPlatform;
  workers: WorkerPool;
  llm: ScriptedLlm;
}

/** Starts a worker rig; what was started before a failure is stopped again. */
export async function startWorkerRig(options: {
  platform: Parameters<typeof createTestPlatform>[1];
  workerEnv?: (h: Harness) => NodeJS.ProcessEnv;
  llm: ScriptHandler;
}): Promise<WorkerRig> {
  const h = await harness();
  const platform = await createTestPlatform(h, options.platform);
  const workers = workerPool(h, platform.config.TEMPORAL_TASK_QUEUE, options.workerEnv?.(h));
  try {
    return { platform, workers, llm: await startScriptedLlm(options.llm) };
  } catch (error) {
    await stopWorkerRig({ workers, platform });
    throw error;
  }
}

/** Stops the workers first (they poll the platform's task queue), then the LLM, then the platform. */
export async function stopWorkerRig(rig: Partial<WorkerRig>): Promise<void> {
  await rig.workers?.stopAll();
  await rig.llm?.close();
  await rig.platform?.close();
}
