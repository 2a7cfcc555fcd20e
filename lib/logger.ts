import pino, { type Bindings, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';
// Pure, so that db/ (which may not import lib/) logs errors in the same shape.
export { logError } from '../domain/logged-error';

const CENSOR = '[redacted]';
const MAX_DEPTH = 16;
const SECRET_KEYS = new Set([
  'secret_value',
  'secrets',
  'api_key',
  'apikey',
  'x-api-key',
  'token',
  'access_token',
  'refresh_token',
  'client_secret',
  'private_key',
  'password',
  'authorization',
  'cookie',
  'set-cookie',
  'x-vault-token',
  'sec-websocket-protocol',
  'value',
]);

/** A copy of `value` with every secret-bearing field blanked at any depth; errors are serialized (with their enumerable fields) first. */
export function redactSecrets(value: unknown, depth = 0, ancestors = new Set<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return redactSecrets({ ...pino.stdSerializers.err(value) }, depth, ancestors);
  // Raw bytes may be key material: log only their length.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  if (ancestors.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return CENSOR;
  ancestors.add(value);
  const copy = Array.isArray(value)
    ? value.map((item) => redactSecrets(item, depth + 1, ancestors))
    : Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          SECRET_KEYS.has(key.toLowerCase()) ? CENSOR : redactSecrets(item, depth + 1, ancestors),
        ]),
      );
  ancestors.delete(value);
  return copy;
}

/**
 * Where the process logger writes: human-readable lines (pino-pretty, from the same redacted records) when `stdout`
 * is a terminal, else undefined, which is pino's JSON lines on stdout.
 */
export function terminalDestination(
  stdout: NodeJS.WritableStream & { isTTY?: boolean },
): DestinationStream | undefined {
  if (!stdout.isTTY) return undefined;
  return pretty({
    destination: stdout,
    sync: true,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
}

/** Creates the process logger; tests pass their own destination to read what was logged. */
export function createLogger(level: string, destination = terminalDestination(process.stdout)): Logger {
  // Not pino's `redact`: its paths stop at fixed depths and its wildcards throw on Buffers and URLs. Every logged
  // object is walked instead, errors included, so the err serializer must leave the serialized error alone.
  const options = {
    level,
    base: { service: 'assay' },
    formatters: { log: (object: Record<string, unknown>) => redactSecrets(object) as Record<string, unknown> },
    serializers: { err: (error: unknown) => error },
  };
  const logger = destination ? pino(options, destination) : pino(options);
  // Children inherit this override through their prototype, so bindings at every level are walked too.
  const child = logger.child;
  logger.child = function (this: Logger, bindings: Bindings, childOptions?: object) {
    return child.call(this, redactSecrets(bindings) as Bindings, childOptions);
  } as Logger['child'];
  return logger;
}
