import http from 'node:http';
import type { Config } from '../lib/config';
import { isLoopbackHost } from '../lib/loopback-host';
import { logError, type Logger } from '../lib/logger';
import { metricsAccess, renderMetrics } from '../lib/metrics-access';

/** A listening metrics server. */
export interface MetricsServer {
  close(): Promise<void>;
}

const ERRORS = {
  hidden: { status: 404, code: 'not_found', message: 'route not found' },
  unauthorized: { status: 401, code: 'unauthorized', message: 'metrics need "Authorization: Bearer <METRICS_TOKEN>"' },
} as const;

/**
 * The worker's own `GET /metrics` on ASSAY_HOST:WORKER_METRICS_PORT, under the api's rule (METRICS_TOKEN, else
 * loopback only); undefined when the port is not set.
 */
export async function startWorkerMetricsServer(
  config: Pick<Config, 'ASSAY_HOST' | 'WORKER_METRICS_PORT' | 'METRICS_TOKEN'>,
  logger: Logger,
): Promise<MetricsServer | undefined> {
  if (config.WORKER_METRICS_PORT === undefined) return undefined;
  const loopbackOnly = isLoopbackHost(config.ASSAY_HOST);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://worker.invalid').pathname;
    const access =
      req.method === 'GET' && path === '/metrics'
        ? metricsAccess(config.METRICS_TOKEN, loopbackOnly, req.headers.authorization)
        : 'hidden';
    if (access !== 'allowed') {
      const { status, code, message } = ERRORS[access];
      const challenge = access === 'unauthorized' ? { 'WWW-Authenticate': 'Bearer' } : {};
      res.writeHead(status, { 'Content-Type': 'application/json', ...challenge });
      res.end(JSON.stringify({ error: { code, message } }));
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
      (error: unknown) => {
        logger.error(logError(error), 'metrics not rendered');
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.WORKER_METRICS_PORT, config.ASSAY_HOST, () => resolve());
  });
  logger.info({ host: config.ASSAY_HOST, port: config.WORKER_METRICS_PORT }, 'worker metrics listening');
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
