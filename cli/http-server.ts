import http from 'node:http';
import type { Express } from 'express';
import { answerClientErrors } from '../lib/http-client-errors';

/** Starts the api on host:port (414 and 431 in the usual error body) and returns a stopper that waits for open requests. */
export async function listen(
  app: Express,
  host: string,
  port: number,
): Promise<{ server: http.Server; close(): Promise<void> }> {
  const server = http.createServer(app);
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
