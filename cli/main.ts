import { Command, InvalidArgumentError, Option } from 'commander';
import { EXIT, fail } from './exit-codes';
import { assayVersion } from './version';

// Each action loads its command module only when it runs, so `agent:eval` never loads the worker, Temporal or
// Express. CommonJS `require`: `import()` of an extensionless path fails under Node's ESM resolver, in tsx and in
// dist/ alike.
const load = <M>(id: string): M =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(id) as M;
type Start = typeof import('./start.command');
type Serve = typeof import('./serve.command');
type Token = typeof import('./token.command');
type AgentEval = typeof import('./agent-eval.command');
type EvalSetFile = typeof import('./eval-set-file.command');

const run =
  <A extends unknown[]>(action: (...args: A) => Promise<void>) =>
  (...args: A): Promise<void> =>
    action(...args).catch(fail);

const uuid = (value: string): string => {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value))
    throw new InvalidArgumentError('must be a workspace id (a UUID)');
  return value;
};

/** Adds the options of every command that calls the HTTP API (read by `apiClientFor` in cli/api-client.ts). */
const apiOptions = (command: Command): Command =>
  command
    .option('--url <url>', 'api URL (default ASSAY_URL or http://127.0.0.1:3000)')
    .option('--token <token>', 'api token (default ASSAY_TOKEN)')
    .addOption(
      new Option(
        '--workspace <id>',
        "workspace id, sent as X-Workspace-Id (default ASSAY_WORKSPACE, else the token's)",
      ).argParser(uuid),
    );

// A usage error (unknown option or command, missing argument, bad value) exits 2, like any error that is not a
// failed gate; --help and --version exit 0.
const program = new Command('assay')
  .description('Agent evaluation and MCP server catalog')
  .version(assayVersion(), '-V, --version', 'print the version')
  .exitOverride((error) => process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.error))
  .showHelpAfterError();

program
  .command('start')
  .description('run everything on this machine (local Postgres and Temporal unless configured)')
  .action(run(() => load<Start>('./start.command').startCommand()));
program
  .command('api')
  .description('run the HTTP api against configured services')
  .action(run(() => load<Serve>('./serve.command').apiCommand()));
program
  .command('worker')
  .description('run a Temporal worker against configured services')
  .action(run(() => load<Serve>('./serve.command').workerCommand()));
program
  .command('migrate')
  .description('bring the database schema up to date')
  .action(run(() => load<Serve>('./serve.command').migrateCommand()));

const token = program.command('token').description('personal API tokens (against the database, like migrate)');
token
  .command('create')
  .description('create a token for a user (created when missing) and print it once')
  .requiredOption('--email <email>', 'the user the token belongs to (created when missing)')
  .option('--name <name>', 'a label for the token')
  .option('--workspace <id>', 'workspace id (default: the first workspace)', uuid)
  .option('--role <role>', 'role in that workspace: owner, admin, builder, viewer', 'builder')
  .option('--expires-in-days <days>', 'expiry; default never')
  .option('--operator', "also make the user an instance operator (may use the Temporal UI's codec)")
  .action(run((options) => load<Token>('./token.command').tokenCreateCommand(options)));
token
  .command('list')
  .description("list a user's tokens (never their secrets), newest first")
  .requiredOption('--email <email>', 'the token owner')
  .option('--limit <n>', 'tokens per page (at most 500)', '50')
  .option('--cursor <cursor>', 'the next_cursor of the previous page')
  .action(run((options) => load<Token>('./token.command').tokenListCommand(options)));
token
  .command('revoke <tokenId>')
  .description('revoke a token')
  .requiredOption('--email <email>', 'the token owner')
  .action(run((tokenId: string, options) => load<Token>('./token.command').tokenRevokeCommand(tokenId, options)));

apiOptions(program.command('agent:eval <agent> <evalSet>'))
  .description('run an eval set offline and exit 0 when the pass rate reaches the minimum, 1 below it, 2 on error')
  .option('--min-pass-rate <number>', 'minimum pass rate for success', '1.0')
  .option('--detailed', 'print the detail of each failed criterion')
  .option('--junit <file>', 'write a JUnit XML report')
  .option('--json <file>', 'write the run, results and comparison as JSON (`-`: to stdout, the report then to stderr)')
  .option('--conversations <file>', 'score these conversations (JSONL or a JSON array, each with its "case")')
  .option('--require-all', 'with --conversations: exit 1 without running when a case has no conversation')
  .option('--tag <name>', 'tag the run (repeatable), e.g. a git SHA or main', (v: string, all: string[] = []) => [
    ...all,
    v,
  ])
  .option('--baseline <run>', 'compare with a run: its id, last-completed or tag:<name>')
  .option('--fail-on-regression', 'with --baseline: exit 1 when any case passed in the baseline and not now')
  .option('--timeout <seconds>', 'cancel the run and exit 2 when it has not ended in time')
  .action((agent: string, evalSet: string, options) =>
    load<AgentEval>('./agent-eval.command')
      .agentEvalCommand(agent, evalSet, options)
      .then((code) => process.exit(code), fail),
  );

const evalSet = program.command('eval-set').description('eval sets as files (format: /schemas/eval-set.json)');
apiOptions(evalSet.command('export <agent> <set>'))
  .description('write an eval set and its cases as a JSON file')
  .option('--out <file>', 'write to this file (default: stdout)')
  .action(
    run((agent: string, set: string, options) =>
      load<EvalSetFile>('./eval-set-file.command').evalSetExportCommand(agent, set, options),
    ),
  );
apiOptions(evalSet.command('import <agent> <file>'))
  .description('upsert cases by name from an eval set file, an ADK *.evalset.json / *.test.json, or *.jsonl')
  .option('--set <name>', "the eval set (default: the file's name; created when missing)")
  .action(
    run((agent: string, file: string, options) =>
      load<EvalSetFile>('./eval-set-file.command').evalSetImportCommand(agent, file, options),
    ),
  );

program.parseAsync(process.argv).catch(fail);
