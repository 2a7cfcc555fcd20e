import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { deriveKey } from '../../lib/master-key';
import { freePort, startProcess, WaitAborted, waitFor, type ManagedProcess } from '../../lib/embedded/process-utils';
import { createDataConverter } from '../../lib/temporal/data-converter';
import { connectTemporal } from '../../lib/temporal/temporal-client';
import type { pingWorkflow } from '../../workflows/ping.workflow';
import { harness, type Harness } from '../helpers/harness';
import { productionEnv } from '../helpers/worker-process';

const ROOT = path.resolve(__dirname, '../..');
const DIST_MAIN = path.join(ROOT, 'dist/cli/main.js');
const BUNDLE = path.join(ROOT, 'dist/workflow-bundle.js');

/** Starts `node dist/cli/main.js <command>` with only the environment a production process gets. */
async function startBuilt(command: 'api' | 'worker', env: NodeJS.ProcessEnv, ready: string): Promise<ManagedProcess> {
  const started = startProcess(process.execPath, [DIST_MAIN, command], { cwd: ROOT, env });
  await waitFor(
    `the built ${command} to start`,
    async () => {
      if (started.child.exitCode !== null) throw new WaitAborted(`${command} exited: ${started.output()}`);
      return started.output().includes(ready);
    },
    90_000,
  ).catch(async (error: Error) => {
    await started.stop('SIGKILL');
    throw new Error(`${error.message}; output:\n${started.output().slice(-4000)}`);
  });
  return started;
}

describe('npm run build (the api and a worker started from dist/)', function () {
  this.timeout(600_000);
  let h: Harness;
  const processes: ManagedProcess[] = [];

  before(async () => {
    h = await harness();
    await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  });
  after(async () => {
    for (const started of processes.splice(0)) await started.stop('SIGTERM');
  });

  it('compiles to dist/, prebuilds the workflow bundle, and serves /readyz and a ping round trip from it', async () => {
    assert.ok(fs.existsSync(DIST_MAIN), 'dist/cli/main.js is built');
    assert.ok(fs.statSync(BUNDLE).size > 0, 'dist/workflow-bundle.js is written');
    const port = await freePort();
    const taskQueue = `assay-build-${process.pid}`;
    const env = { ...productionEnv(h, taskQueue), ASSAY_PORT: String(port) };
    processes.push(await startBuilt('api', env, 'api listening'));
    const worker = await startBuilt('worker', env, 'worker running');
    processes.push(worker);
    assert.ok(worker.output().includes(BUNDLE), 'the worker loads the prebuilt bundle instead of bundling at start');

    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    assert.equal(ready.status, 200, await ready.text());

    const temporal = await connectTemporal(
      h.temporalAddress,
      'default',
      createDataConverter(deriveKey(h.masterKey, 'temporal-payload')),
    );
    try {
      const pong = await temporal.client.workflow.execute<typeof pingWorkflow>('pingWorkflow', {
        taskQueue,
        workflowId: `ping:build-${process.pid}`,
        args: [{ message: 'built' }],
      });
      assert.deepEqual(pong, { message: 'built', worker_pid: worker.child.pid });
    } finally {
      await temporal.close();
    }
  });
});
