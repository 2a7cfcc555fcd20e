import http from 'node:http';
import type { Duplex } from 'node:stream';
import { LIMITS } from '../domain/limits';
import { HttpError } from './http-error';

/** 414 `uri_too_long`: a request URL (path and query) over `requestUrlBytes`. */
const uriTooLong = (): HttpError =>
  new HttpError(414, 'uri_too_long', `the request URL is over ${LIMITS.requestUrlBytes} bytes`, {
    field: '(request URL)',
    max: LIMITS.requestUrlBytes,
  });

/** The first middleware of the api and the gateway: a URL over `requestUrlBytes` goes no further (414). */
export function rejectLongUrls(
  req: http.IncomingMessage,
  _res: http.ServerResponse,
  next: (error?: HttpError) => void,
): void {
  next(Buffer.byteLength(req.url ?? '') > LIMITS.requestUrlBytes ? uriTooLong() : undefined);
}

/**
 * Whether Node's overflow of the request line and headers is the URL's: the parser stopped at the end of a request
 * target (` HTTP/` follows), or the packet opens with a request line over `requestUrlBytes`. A URL trickled in many
 * small packets may read as headers (431).
 */
function urlOverflowed(packet: Buffer | undefined, stoppedAt: number | undefined): boolean {
  if (!packet) return false;
  if (stoppedAt !== undefined && packet.toString('latin1', stoppedAt, stoppedAt + 6) === ' HTTP/') return true;
  const lineEnd = packet.indexOf('\r\n');
  const target = /^[A-Z]+ (\S+)/.exec(packet.toString('latin1', 0, lineEnd < 0 ? packet.length : lineEnd))?.[1];
  return target !== undefined && target.length > LIMITS.requestUrlBytes;
}

function rawResponse(status: string, body?: unknown): string {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const head = [`HTTP/1.1 ${status}`, 'Connection: close'];
  if (text) head.push('Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(text)}`);
  return `${head.join('\r\n')}\r\n\r\n${text ?? ''}`;
}

/** The answer to Node's overflow of the request line and headers (16 KiB by default): 414 for a URL, else 431. */
function overflowResponse(error: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number }): string {
  if (urlOverflowed(error.rawPacket, error.bytesParsed)) return rawResponse('414 URI Too Long', uriTooLong().toJSON());
  const max = http.maxHeaderSize;
  const headers = new HttpError(431, 'headers_too_large', `the request line and headers are over ${max} bytes`, {
    field: '(request line and headers)',
    max,
  });
  return rawResponse('431 Request Header Fields Too Large', headers.toJSON());
}

/**
 * Answers what Node refuses before the app sees it as Node would, except that a request line or headers over the
 * limit get the API's usual error body: 414 `uri_too_long` for a long URL, 431 `headers_too_large` for the rest.
 */
export function answerClientErrors(server: http.Server): void {
  server.on(
    'clientError',
    (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
      if (socket.writable && !socket._httpMessage?.headersSent) {
        if (error.code === 'HPE_HEADER_OVERFLOW') socket.write(overflowResponse(error));
        else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.write(rawResponse('408 Request Timeout'));
        else if (error.code !== 'ECONNRESET') socket.write(rawResponse('400 Bad Request'));
      }
      socket.destroy(error);
    },
  );
}
