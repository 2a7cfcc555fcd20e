import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** A stateful MCP endpoint served on loopback. */
export interface ServedMcp {
  url: string;
  close(): Promise<void>;
}

/** Answers a request itself (raw HTTP, before its session sees it); true when it did. */
export type HttpIntercept = (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => boolean;

/** Serves `newServer` (one SDK `Server` per session) over Streamable HTTP with sessions at `/mcp` on 127.0.0.1. */
export async function serveStatefulMcp(newServer: () => Server, intercept?: HttpIntercept): Promise<ServedMcp> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> => {
    if (intercept?.(req, res, body)) return;
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (known) return known.handleRequest(req, res, body);
    if ((body as { method?: string } | undefined)?.method !== 'initialize') {
      res.writeHead(404).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => void (transport.sessionId && sessions.delete(transport.sessionId));
    await newServer().connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const httpServer = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      handle(req, res, raw ? JSON.parse(raw) : undefined).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', () => resolve()));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      for (const transport of sessions.values()) await transport.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}
