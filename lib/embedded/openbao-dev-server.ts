import path from 'node:path';
import { freePort, startProcess, WaitAborted, waitFor } from './process-utils';

/** An OpenBao dev server (in-memory, KV v2 at secret/) on loopback. */
export interface OpenBaoDevServer {
  readonly address: string;
  readonly token: string;
  stop(): Promise<void>;
}

/** Starts `bao server -dev` from .tools/bin and waits until it reports unsealed. */
export async function startOpenBaoDevServer(
  token: string,
  binary = path.resolve('.tools/bin/bao'),
): Promise<OpenBaoDevServer> {
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const server = startProcess(
    binary,
    ['server', '-dev', `-dev-root-token-id=${token}`, `-dev-listen-address=127.0.0.1:${port}`],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME } },
  );
  await waitFor('openbao', async () => {
    if (server.child.exitCode !== null) throw new WaitAborted(`openbao exited: ${server.output()}`);
    const res = await fetch(`${address}/v1/sys/health`);
    return res.status === 200;
  });
  return { address, token, stop: () => server.stop('SIGTERM') };
}
