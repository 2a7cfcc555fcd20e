import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';

let installed = false;

/**
 * Installs the Temporal SDK's runtime once per process, before its first native connection: its own logs (warnings and
 * up) go to our logger, and with TEMPORAL_METRICS_PORT its Prometheus exporter serves the SDK's metrics at
 * ASSAY_HOST:TEMPORAL_METRICS_PORT/metrics. The runtime cannot be installed twice, so a later call (a second worker in
 * the same process, as in the tests) keeps the first one's exporter, or none.
 */
export function installTemporalRuntime(
  logger: Logger,
  config: Pick<Config, 'ASSAY_HOST' | 'TEMPORAL_METRICS_PORT'>,
): void {
  const port = config.TEMPORAL_METRICS_PORT;
  if (installed) {
    if (port !== undefined)
      logger.warn({ port }, 'Temporal runtime already installed: its metrics exporter is unchanged');
    return;
  }
  installed = true;
  // The exporter binds a socket address: an IP literal (IPv6 in brackets), not a name.
  const ip = config.ASSAY_HOST.toLowerCase() === 'localhost' ? '127.0.0.1' : config.ASSAY_HOST;
  const host = ip.includes(':') ? `[${ip}]` : ip;
  Runtime.install({
    logger: new DefaultLogger('WARN', ({ level, message, meta }) => {
      const method = (level === 'ERROR' ? 'error' : 'warn') satisfies Lowercase<LogLevel>;
      logger[method]({ temporal: meta }, message);
    }),
    ...(port === undefined
      ? {}
      : {
          telemetryOptions: {
            metrics: {
              prometheus: { bindAddress: `${host}:${port}`, countersTotalSuffix: true, useSecondsForDurations: true },
            },
          },
        }),
  });
}
