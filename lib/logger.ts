import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

const SECRET_KEYS = ['secret_value', 'secrets', 'api_key', 'token', 'password', 'authorization', 'cookie', 'value'];

/** Paths pino blanks out: the Authorization header and every secret-bearing field, at any of the first depths. */
export const REDACT_PATHS: string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["sec-websocket-protocol"]',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

/** Creates the process logger; tests pass their own destination to read what was logged. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'assay' } };
  return destination ? pino(options, destination) : pino(options);
}
