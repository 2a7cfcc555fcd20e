import http from 'node:http';
import type { Duplex } from 'node:stream';

function rawResponse(status: string, body?: string): string {
  const head = [`HTTP/1.1 ${status}`, 'Connection: close'];
  if (body) head.push('Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`);
  return `${head.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/**
 * Answers what Node refuses before the app sees it as Node would, except that a request line or headers over the
 * limit (a long `cursor`, a repeated `limit`) gets the API's usual error body: 431 `headers_too_large`.
 */
export function answerClientErrors(server: http.Server): void {
  server.on(
    'clientError',
    (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
      if (socket.writable && !socket._httpMessage?.headersSent) {
        if (error.code === 'HPE_HEADER_OVERFLOW') {
          // Node's limit on the request line and headers together (`--max-http-header-size`, 16 KiB by default).
          const max = http.maxHeaderSize;
          const body = JSON.stringify({
            error: {
              code: 'headers_too_large',
              message: `the request line and headers are over ${max} bytes`,
              details: { field: '(request line and headers)', max },
            },
          });
          socket.write(rawResponse('431 Request Header Fields Too Large', body));
        } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.write(rawResponse('408 Request Timeout'));
        else if (error.code !== 'ECONNRESET') socket.write(rawResponse('400 Bad Request'));
      }
      socket.destroy(error);
    },
  );
}
