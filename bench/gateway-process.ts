import path from 'node:path';
import { freePort, startProcess, WaitAborted, waitFor } from '../lib/embedded/process-utils';
import type { Harness } from '../test/helpers/harness';
import { productionEnv } from '../test/helpers/worker-process';
import type { ServedGateway } from '../test/helpers/gateway-rig';

const BIN = path.resolve(__dirname, '../bin/assay.js');

/**
 * The production `assay gateway` command as a child process on the harness's services (its own event loop and core,
 * as server-everything has, so the bench process's client work does not slow the gateway), `env` added.
 */
export async function spawnGateway(h: Harness, taskQueue: string, env: NodeJS.ProcessEnv): Promise<ServedGateway> {
  const port = await freePort();
  const gateway = startProcess(process.execPath, [BIN, 'gateway'], {
    env: { ...productionEnv(h, taskQueue), ASSAY_HOST: '127.0.0.1', ASSAY_GATEWAY_PORT: String(port), ...env },
  });
  try {
    await waitFor(
      'the gateway to start',
      async () => {
        if (gateway.child.exitCode !== null) throw new WaitAborted(`gateway exited: ${gateway.output()}`);
        return gateway.output().includes('gateway listening');
      },
      90_000,
    );
  } catch (error) {
    await gateway.stop('SIGKILL');
    throw error;
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    url: (agent) => `${baseUrl}/mcp/agents/${encodeURIComponent(agent)}`,
    close: () => gateway.stop('SIGTERM'),
  };
}
