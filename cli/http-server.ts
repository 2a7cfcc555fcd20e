import http from 'node:http';
import type { Express } from 'express';

/** Starts the api on host:port and returns a stopper that waits for open requests. */
export async function listen(
  app: Express,
  host: string,
  port: number,
): Promise<{ server: http.Server; close(): Promise<void> }> {
  const server = http.createServer(app);
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
