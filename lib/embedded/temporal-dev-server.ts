import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort, portOpen, startProcess, WaitAborted, waitFor } from './process-utils';

/** A Temporal CLI dev server on loopback. */
export interface TemporalDevServer {
  readonly address: string;
  readonly uiUrl: string | null;
  stop(): Promise<void>;
}

export interface TemporalDevServerOptions {
  port: number;
  uiPort?: number;
  namespace: string;
  /** SQLite file for persistent state; omitted = in memory. */
  dbFile?: string;
  searchAttributes: Record<string, string>;
  /** Remote codec the Web UI uses to show encrypted payloads. */
  codecEndpoint?: string;
  binary?: string;
}

/** Starts `temporal server start-dev` (Web UI unless uiPort is omitted) and waits until the frontend answers. */
export async function startTemporalDevServer(options: TemporalDevServerOptions): Promise<TemporalDevServer> {
  const binary = options.binary ?? path.resolve('.tools/bin/temporal');
  if (await portOpen(options.port))
    throw new Error(`port ${options.port} is taken; set TEMPORAL_PORT or TEMPORAL_ADDRESS`);
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--namespace',
    options.namespace,
  ];
  args.push(
    '--http-port',
    String(await freePort()),
    '--metrics-port',
    String(await freePort()),
    '--log-level',
    'error',
  );
  args.push(...(options.uiPort ? ['--ui-port', String(options.uiPort), '--ui-ip', '127.0.0.1'] : ['--headless']));
  if (options.dbFile) args.push('--db-filename', options.dbFile);
  if (options.uiPort && options.codecEndpoint) args.push('--ui-codec-endpoint', options.codecEndpoint);
  for (const [key, type] of Object.entries(options.searchAttributes)) args.push('--search-attribute', `${key}=${type}`);
  const server = startProcess(binary, args);
  const address = `127.0.0.1:${options.port}`;
  await waitFor(
    'temporal dev server',
    async () => {
      if (server.child.exitCode !== null) throw new WaitAborted(`temporal exited: ${server.output()}`);
      if (!(await portOpen(options.port))) return false;
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.withDeadline(Date.now() + 2000, () =>
          connection.workflowService.describeNamespace({ namespace: options.namespace }),
        );
        return true;
      } finally {
        await connection.close();
      }
    },
    90_000,
  );
  return {
    address,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : null,
    stop: () => server.stop('SIGTERM'),
  };
}
