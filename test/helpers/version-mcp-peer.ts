import type http from 'node:http';
import { startHttpPeer } from './mcp-peers';

/** A bare MCP peer that answers `initialize` with a chosen protocol version and notes what the client sent. */
export interface VersionMcpPeer {
  url: string;
  /** The version the client offered in each `initialize`. */
  offered: string[];
  /** The `MCP-Protocol-Version` header of each request after `initialize`, by JSON-RPC method. */
  headers: Array<{ method: string; version: string | undefined }>;
  close(): Promise<void>;
}

/** Starts the peer on loopback; it answers `version` to every `initialize` and an empty tool list. */
export async function startVersionMcpPeer(version: string): Promise<VersionMcpPeer> {
  const offered: string[] = [];
  const headers: VersionMcpPeer['headers'] = [];
  const respond = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      // GET (a server stream) and DELETE (session end) are not offered.
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const message = JSON.parse(raw) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (message.method === 'initialize') offered.push(String(message.params?.protocolVersion));
      else headers.push({ method: message.method, version: req.headers['mcp-protocol-version'] as string | undefined });
      if (message.id === undefined) return void res.writeHead(202).end();
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: version,
              capabilities: { tools: {} },
              serverInfo: { name: 'version-peer', version: '1' },
            }
          : { tools: [] };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  };
  const peer = await startHttpPeer('127.0.0.1', respond);
  return { url: `http://127.0.0.1:${peer.port}/mcp`, offered, headers, close: peer.close };
}
