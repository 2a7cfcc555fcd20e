import { Command } from 'commander';
import { EXIT, exitFlushed, fail } from './exit-codes';
import { commandModules } from './command-modules';
import { apiOptions, run } from './program-kit';
import { registerTenancyCommands } from './tenancy-commands';
import { assayVersion } from './version';

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
  .action(run(() => commandModules.start().startCommand()));
program
  .command('api')
  .description('run the HTTP api against configured services')
  .action(run(() => commandModules.serve().apiCommand()));
program
  .command('worker')
  .description('run a Temporal worker against configured services')
  .action(run(() => commandModules.serve().workerCommand()));
program
  .command('gateway')
  .description('run the MCP gateway (/mcp/agents/{agent}) against configured services')
  .action(run(() => commandModules.serve().gatewayCommand()));
program
  .command('migrate')
  .description('bring the database schema up to date')
  .action(run(() => commandModules.serve().migrateCommand()));

registerTenancyCommands(program);

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
  .option(
    '--fail-on-regression [mode]',
    'with --baseline: exit 1 on a regression; `any` (the default) when any case passed in the baseline and not now, `significant` only when the exact McNemar test finds it significant at --alpha',
  )
  .option('--alpha <p>', 'with --fail-on-regression significant: the significance level (default 0.05)')
  .option('--timeout <seconds>', 'cancel the run and exit 2 when it has not ended in time')
  .option('--no-cache', 'judge every sample afresh: neither read nor write the judge verdict cache')
  .option('--repeats <n>', 'score each case n times (1–10; fresh judge samples each time) and list the flaky cases')
  .option('--min-repeat-pass <k>', 'with --repeats: a case passes when it passes in at least k repeats (default all)')
  .option('--max-unscored <n|pct>', 'exit 1 when more cases than n (or pct% of them) left a criterion unscored')
  .action((agent: string, evalSet: string, options) =>
    commandModules.agentEval().agentEvalCommand(agent, evalSet, options).then(exitFlushed, fail),
  );

const evalSet = program.command('eval-set').description('eval sets as files (format: /schemas/eval-set.json)');
apiOptions(evalSet.command('export <agent> <set>'))
  .description('write an eval set and its cases as a JSON file')
  .option('--out <file>', 'write to this file (default: stdout)')
  .option('--format <format>', 'assay (default) or adk: a Google ADK EvalSet')
  .action(
    run((agent: string, set: string, options) =>
      commandModules.evalSetFile().evalSetExportCommand(agent, set, options),
    ),
  );
apiOptions(evalSet.command('import <agent> <file>'))
  .description('upsert cases by name from an eval set file, an ADK *.evalset.json / *.test.json, or *.jsonl')
  .option('--set <name>', "the eval set (default: the file's name; created when missing)")
  .option('--config <file>', 'then apply an ADK test_config.json / eval_config.json to the set')
  .action(
    run((agent: string, file: string, options) =>
      commandModules.evalSetFile().evalSetImportCommand(agent, file, options),
    ),
  );
apiOptions(evalSet.command('import-results <agent> <set> <file>'))
  .description("import an ADK *.evalset_result.json as a completed run of the set, with ADK's verdicts")
  .action(
    run((agent: string, set: string, file: string, options) =>
      commandModules.evalSetResults().evalSetImportResultsCommand(agent, set, file, options),
    ),
  );

program.parseAsync(process.argv).catch(fail);
