import { ConfigError } from '../lib/config';

/** 0 success, 1 a gate failed (e.g. pass rate below the minimum), 2 any other error. */
export const EXIT = { ok: 0, gateFailed: 1, error: 2 } as const;

/** Prints an error without a stack and exits 2. */
export function fail(error: unknown): never {
  const message = error instanceof ConfigError ? error.message : `error: ${(error as Error)?.message ?? String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(EXIT.error);
}

/** Exits with `code` once stdout has taken everything written to it: a pipe is written asynchronously, and exiting
 * at once would cut a long `--json -` short. */
export function exitFlushed(code: number): void {
  process.stdout.write('', () => process.exit(code));
}
