import { InvalidArgumentError, Option, type Command } from 'commander';
import { isUuid } from '../db/column-values';
import { fail } from './exit-codes';

/** Wraps an action so that its failure prints the error and exits 2. */
export const run =
  <A extends unknown[]>(action: (...args: A) => Promise<void>) =>
  (...args: A): Promise<void> =>
    action(...args).catch(fail);

/** Parses a workspace id (a usage error otherwise). */
export const uuid = (value: string): string => {
  if (!isUuid(value)) throw new InvalidArgumentError('must be a workspace id (a UUID)');
  return value;
};

/** Parses `--expires-in-days`: whole days, at least 1 (a usage error otherwise). */
export const days = (value: string): number => {
  if (!/^[1-9][0-9]{0,5}$/.test(value)) throw new InvalidArgumentError('must be a whole number of days, at least 1');
  return Number(value);
};

const flag = (name: string): string => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Refuses (exit 2) the options among `names` that were given, saying why: e.g. database-only options over HTTP. */
export function refuseOptions(options: object, names: readonly string[], why: string): void {
  const given = names.filter((name) => (options as Record<string, unknown>)[name] !== undefined);
  if (given.length > 0) throw new InvalidArgumentError(`${given.map(flag).join(', ')} ${why}`);
}

/** Adds `--url` and `--token` (read by `apiClientFor` in cli/api-client.ts). */
export const connectionOptions = (command: Command): Command =>
  command
    .option('--url <url>', 'api URL (default ASSAY_URL or http://127.0.0.1:3000)')
    .option('--token <token>', 'api token (default ASSAY_TOKEN)');

/** Adds the options of every command that calls the HTTP API: `--url`, `--token` and `--workspace`. */
export const apiOptions = (command: Command): Command =>
  connectionOptions(command).addOption(
    new Option(
      '--workspace <id>',
      "workspace id, sent as X-Workspace-Id (default ASSAY_WORKSPACE, else the token's)",
    ).argParser(uuid),
  );
