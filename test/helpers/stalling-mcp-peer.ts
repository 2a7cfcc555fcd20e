import http from 'node:http';
import type net from 'node:net';

/**
 * A Streamable HTTP MCP server on 127.0.0.1 with two endpoints: `/ok` answers the whole handshake (`initialize`, the
 * `initialized` notification, the session's DELETE); `/stall` answers `initialize` and then holds every later request
 * of the session open, as a server that hangs mid-handshake does. Counts the stalled requests open now and at most.
 */
export interface StallingMcpPeer {
  okUrl: string;
  stallUrl: string;
  /** Stalled requests held open now, and the most held at once so far. */
  stalled(): number;
  peakStalled(): number;
  /** `initialize` requests answered on `/ok`: one per completed check. */
  okHandshakes(): number;
  close(): Promise<void>;
}

async function readBody(req: http.IncomingMessage): Promise<{ id?: unknown; method?: string; params?: any }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return {};
  }
}

const initializeReply = (id: unknown, protocolVersion: string): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stalling', version: '1.0.0' } },
  });

/** Starts the peer on a free loopback port. */
export async function startStallingMcpPeer(): Promise<StallingMcpPeer> {
  let stalled = 0;
  let peak = 0;
  let handshakes = 0;
  const server = http.createServer((req, res) => {
    void readBody(req).then((body) => {
      const stall = req.url === '/stall';
      if (req.method === 'POST' && body.method === 'initialize') {
        if (!stall) handshakes++;
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': `s-${Math.random()}` });
        res.end(initializeReply(body.id, String(body.params?.protocolVersion ?? '2025-06-18')));
      } else if (stall) {
        stalled++;
        peak = Math.max(peak, stalled);
        res.on('close', () => stalled--);
      } else if (req.method === 'GET') {
        res.writeHead(405).end();
      } else {
        res.writeHead(req.method === 'DELETE' ? 200 : 202).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    okUrl: `http://127.0.0.1:${port}/ok`,
    stallUrl: `http://127.0.0.1:${port}/stall`,
    stalled: () => stalled,
    peakStalled: () => peak,
    okHandshakes: () => handshakes,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
