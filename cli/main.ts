import { Command } from 'commander';
import { agentEvalCommand } from './agent-eval.command';
import { fail } from './exit-codes';
import { apiCommand, migrateCommand, workerCommand } from './serve.command';
import { startCommand } from './start.command';
import { tokenCreateCommand, tokenRevokeCommand } from './token.command';

const program = new Command('assay').description('Agent evaluation and MCP server catalog').showHelpAfterError();
const run =
  <A extends unknown[]>(action: (...args: A) => Promise<void>) =>
  (...args: A): Promise<void> =>
    action(...args).catch(fail);

program
  .command('start')
  .description('run everything on this machine (local Postgres and Temporal unless configured)')
  .action(run(startCommand));
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
  .option('--operator', "also make the user an instance operator (may use the Temporal UI's codec)")
  .action(run(tokenCreateCommand));
token.command('revoke <tokenId>').requiredOption('--email <email>', 'the token owner').action(run(tokenRevokeCommand));

program
  .command('agent:eval <agent> <evalSet>')
  .description('run an eval set offline and exit 0 when the pass rate reaches the minimum, 1 below it, 2 on error')
  .option('--min-pass-rate <number>', 'minimum pass rate for success', '1.0')
  .option('--detailed', 'print the detail of each failed criterion')
  .option('--junit <file>', 'write a JUnit XML report')
  .option('--json <file>', 'write the run and its results as JSON')
  .option('--url <url>', 'api URL (default ASSAY_URL or http://127.0.0.1:3000)')
  .option('--token <token>', 'api token (default ASSAY_TOKEN)')
  .action((agent: string, evalSet: string, options) =>
    agentEvalCommand(agent, evalSet, options).then((code) => process.exit(code), fail),
  );

program.parseAsync(process.argv).catch(fail);
