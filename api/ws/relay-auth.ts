import http from 'node:http';
import type { Duplex } from 'node:stream';

/** The subprotocol the relay speaks; a browser offers it together with its token (see `credentialsOf`). */
export const RELAY_PROTOCOL = 'assay.v1';
const BEARER_PROTOCOL_PREFIX = 'assay.bearer.';

/**
 * The caller's credentials as an Authorization header value. Non-browser clients send `Authorization: Bearer <token>`;
 * a browser cannot set headers on a WebSocket, so it offers the subprotocols `assay.v1` and `assay.bearer.<token>`.
 * A token in the query string is never read: URLs end up in logs and browser history.
 */
export function credentialsOf(req: http.IncomingMessage): string | undefined {
  if (req.headers.authorization) return req.headers.authorization;
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((protocol) => protocol.trim());
  const bearer = offered.find((protocol) => protocol.startsWith(BEARER_PROTOCOL_PREFIX));
  return bearer ? `Bearer ${bearer.slice(BEARER_PROTOCOL_PREFIX.length)}` : undefined;
}

/** Picks the subprotocol to answer with: never the bearer one, which would echo the token back. */
export function chooseProtocol(offered: Set<string>): string | false {
  return offered.has(RELAY_PROTOCOL) ? RELAY_PROTOCOL : false;
}

/** Refuses an upgrade with a plain HTTP response carrying the API's error body. */
export function rejectUpgrade(socket: Duplex, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
  );
}
