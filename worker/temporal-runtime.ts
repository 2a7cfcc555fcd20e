import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../lib/logger';

let installed = false;

/** Routes the Temporal SDK's own logs (warnings and up) into our logger; installed once per process. */
export function installTemporalRuntime(logger: Logger): void {
  if (installed) return;
  installed = true;
  Runtime.install({
    logger: new DefaultLogger('WARN', ({ level, message, meta }) => {
      const method = (level === 'ERROR' ? 'error' : 'warn') satisfies Lowercase<LogLevel>;
      logger[method]({ temporal: meta }, message);
    }),
  });
}
