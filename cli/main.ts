import { Command } from 'commander';
import { fail } from './exit-codes';
import { apiCommand, migrateCommand, workerCommand } from './serve.command';
import { startCommand } from './start.command';
import { tokenCreateCommand, tokenRevokeCommand } from './token.command';

const program = new Command('assay').description('Agent evaluation and MCP server catalog').showHelpAfterError();
const run = <A extends unknown[]>(action: (...args: A) => Promise<void>) => (...args: A): Promise<void> => action(...args).catch(fail);

program.command('start').description('run everything on this machine (local Postgres and Temporal unless configured)').action(run(startCommand));
program.command('api').description('run the HTTP api against configured services').action(run(apiCommand));
program.command('worker').description('run a Temporal worker against configured services').action(run(workerCommand));
program.command('migrate').description('bring the database schema up to date').action(run(migrateCommand));

const token = program.command('token').description('personal API tokens');
token
  .command('create')
  .requiredOption('--email <email>', 'the user the token belongs to (created when missing)')
  .option('--name <name>', 'a label for the token')
  .option('--workspace <id>', 'workspace id (default: the first workspace)')
  .option('--role <role>', 'role in that workspace: owner, admin, builder, viewer', 'owner')
  .option('--expires-in-days <days>', 'expiry; default never')
  .action(run(tokenCreateCommand));
token.command('revoke <tokenId>').requiredOption('--email <email>', 'the token owner').action(run(tokenRevokeCommand));

program.parseAsync(process.argv).catch(fail);
