import http from 'node:http';
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ELICITATION_CAPABILITY } from '../../lib/outbound/mcp/elicitation';
import { freePort, portOpen, startProcess, waitFor, type ManagedProcess } from '../../lib/embedded/process-utils';

/** The entry script of `@modelcontextprotocol/server-everything` (`node <it> stdio|streamableHttp`). */
export const EVERYTHING_ENTRY = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

/**
 * An operator catalog entry (`MCP_CATALOG_FILE`) running server-everything over stdio with its one secret in the env.
 * Extra argv after the transport is ignored by server-everything; `marker` there lets a test find the children.
 */
export const everythingStdioEntry = (marker: string) => ({
  name: 'everything-stdio',
  label: 'Everything (stdio)',
  category: 'Test',
  image: 'https://example.com/e.png',
  transport: 'stdio_curated',
  required_secrets: ['EVERYTHING_API_KEY'],
  command: [process.execPath, EVERYTHING_ENTRY, 'stdio', marker],
  env: { EVERYTHING_API_KEY: 'EVERYTHING_API_KEY' },
});

/** A real server-everything over streamable HTTP on loopback; stop() kills it by pid. */
export interface EverythingServer {
  url: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** Spawns server-everything's streamable HTTP transport on `port` (else a free one) and waits until it listens. */
export async function startEverythingHttp(onPort?: number): Promise<EverythingServer> {
  const port = onPort ?? (await freePort());
  const child = startProcess(process.execPath, [EVERYTHING_ENTRY, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
  });
  await waitFor(`server-everything on ${port}`, () => portOpen(port), 30_000).catch((error: Error) => {
    throw new Error(`${error.message}\n${child.output()}`);
  });
  return { url: `http://127.0.0.1:${port}/mcp`, process: child, stop: () => child.stop('SIGKILL') };
}

/** Lists every tool of a server with the MCP SDK's own client, following cursors: the reference to compare with. */
export async function listToolsWithSdk(url: string, headers: Record<string, string> = {}): Promise<string[]> {
  // The same capabilities Assay's client declares (a server may offer tools by the client's capabilities).
  const client = new Client(
    { name: 'reference', version: '1.0.0' },
    { capabilities: { elicitation: ELICITATION_CAPABILITY } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor);
  await client.close();
  return names.sort();
}

/** A TCP listener that counts every connection it accepts (and closes it at once). */
export interface CountingListener {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

const listen = (server: net.Server, port: number, host: string): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });

const closeServer = (server: net.Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** Listens on 127.0.0.1 and [::1] on one port, so every loopback spelling of the target lands here. */
export async function startCountingListener(): Promise<CountingListener> {
  let count = 0;
  const onConnection = (socket: net.Socket): void => {
    count++;
    socket.destroy();
  };
  const v4 = net.createServer(onConnection);
  const v6 = net.createServer(onConnection);
  await listen(v4, 0, '127.0.0.1');
  const { port } = v4.address() as net.AddressInfo;
  await listen(v6, port, '::1');
  return {
    port,
    connections: () => count,
    close: async () => void (await Promise.all([closeServer(v4), closeServer(v6)])),
  };
}

/** A listener on `host` that accepts connections and never answers: the server that never responds. */
export async function startSilentListener(host: string): Promise<CountingListener> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await listen(server, 0, host);
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    connections: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    },
  };
}

/** A plain HTTP server on `host` answering every request with `respond`; counts requests. */
export async function startHttpPeer(
  host: string,
  respond: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<CountingListener> {
  let count = 0;
  const server = http.createServer((req, res) => {
    count++;
    respond(req, res);
  });
  await listen(server, 0, host);
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    connections: () => count,
    close: async () => {
      server.closeAllConnections();
      await closeServer(server);
    },
  };
}
