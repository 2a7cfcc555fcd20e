import { Argument, Option, type Command, type OptionValues } from 'commander';
import { ROLES } from '../domain/tenancy/permissions';
import { commandModules } from './command-modules';
import { apiOptions, connectionOptions, days, refuseOptions, run, uuid } from './program-kit';

type Token = typeof import('./token.command');
type ApiTokens = typeof import('./api-tokens.command');

const SERVICE_ROLES = ROLES.filter((role) => role !== 'owner');
const json = (command: Command): Command => command.option('--json', 'print JSON instead of a table');
const api = (command: Command): Command => json(apiOptions(command));
const tokens = commandModules.apiTokens;
const workspaces = commandModules.workspace;
const members = commandModules.member;

// With --email a token command is the database bootstrap (like migrate); without it, it calls the API, and the options
// only the bootstrap takes are refused.
const bootstrap = commandModules.token;
const bootstrapOr =
  (
    bootstrapOnly: readonly string[],
    viaDb: (db: Token, options: OptionValues & { email: string }) => Promise<void>,
    viaApi: (api: ApiTokens, options: OptionValues) => Promise<void>,
  ) =>
  (options: OptionValues): Promise<void> => {
    if (options.email) return viaDb(bootstrap(), { ...options, email: options.email });
    refuseOptions(options, bootstrapOnly, 'only with --email (the database bootstrap)');
    return viaApi(tokens(), options);
  };

const createToken = bootstrapOr(
  ['role', 'operator', 'force'],
  (db, o) => db.tokenCreateCommand(o),
  (api, o) => api.apiTokenCreateCommand('personal', o),
);
const listTokens = bootstrapOr(
  ['limit', 'cursor'],
  (db, o) => db.tokenListCommand(o),
  (api, o) => api.apiTokenListCommand('personal', o),
);

/** `assay token`: with `--email` against the database (bootstrap, like migrate); without it, the caller's own over HTTP. */
function tokenCommands(program: Command): void {
  const token = program
    .command('token')
    .description("personal API tokens: your own over HTTP; with --email, any user's against the database");
  json(connectionOptions(token.command('create')))
    .description('create a token and print it once (--email: for that user, created when missing, in the database)')
    .option('--email <email>', 'bootstrap: the user the token belongs to (created when missing)')
    .option('--name <name>', 'a label for the token (default cli)')
    .option(
      '--workspace <id>',
      "workspace id (--email: the membership's, default the first; else X-Workspace-Id)",
      uuid,
    )
    .option('--role <role>', 'with --email: role in that workspace: owner, admin, builder, viewer (default builder)')
    .option('--expires-in-days <days>', 'expiry in whole days; default and at most TOKEN_MAX_DAYS (90)', days)
    .option('--operator', "with --email: also make the user an instance operator (the Temporal UI's codec)")
    .option('--force', 'with --operator: even a user made by an invitation (refused without it)')
    .action(run(createToken));
  api(token.command('list'))
    .description("list tokens, newest first, never their secrets (--email: a user's, one page, from the database)")
    .option('--email <email>', 'bootstrap: the token owner')
    .option('--limit <n>', 'with --email: tokens per page (at most 500, default 50)')
    .option('--cursor <cursor>', 'with --email: the next_cursor of the previous page')
    .action(run(listTokens));
  api(token.command('revoke <tokenId>'))
    .description("revoke a token (--email: any user's, in the database)")
    .option('--email <email>', 'bootstrap: the token owner')
    .action(
      run((id: string, o) =>
        o.email ? bootstrap().tokenRevokeCommand(id, o) : tokens().apiTokenRevokeCommand('personal', id, o),
      ),
    );
}

function serviceTokenCommands(program: Command): void {
  const service = program.command('service-token').description("the workspace's service tokens (for CI), over HTTP");
  api(service.command('create'))
    .description('create a service token of the workspace and print it once')
    .requiredOption('--name <name>', 'a label for the token')
    .addOption(new Option('--role <role>', 'its role (default builder)').choices(SERVICE_ROLES))
    .option('--expires-in-days <days>', 'expiry in whole days; default never', days)
    .action(run((options) => tokens().apiTokenCreateCommand('service', options)));
  api(service.command('list'))
    .description("list the workspace's service tokens, never their secrets")
    .action(run((options) => tokens().apiTokenListCommand('service', options)));
  api(service.command('revoke <tokenId>'))
    .description('revoke a service token')
    .action(run((id: string, options) => tokens().apiTokenRevokeCommand('service', id, options)));
}

function workspaceCommands(program: Command): void {
  const workspace = program.command('workspace').description('workspaces you belong to, over HTTP');
  const byId = (name: string): Command =>
    api(workspace.command(name)).addArgument(new Argument('<id>', 'workspace id').argParser(uuid));
  api(workspace.command('create <name>'))
    .description('create a workspace (you become its owner)')
    .action(run((name: string, options) => workspaces().workspaceCreateCommand(name, options)));
  api(workspace.command('list'))
    .description('list your workspaces and your role in each')
    .action(run((options) => workspaces().workspaceListCommand(options)));
  byId('rename')
    .description('rename a workspace')
    .argument('<name>', 'the new name')
    .action(run((id: string, name: string, options) => workspaces().workspaceRenameCommand(id, name, options)));
  byId('delete')
    .description('delete a workspace and everything in it (owner only)')
    .option('--yes', 'confirm: its agents, eval sets, runs and secrets go for good')
    .action(run((id: string, options) => workspaces().workspaceDeleteCommand(id, options)));
}

function memberCommands(program: Command): void {
  const member = program.command('member').description('members of the workspace (--workspace), over HTTP');
  const who = '<member>';
  api(member.command('add <email>'))
    .description('add a person (a new user also gets an invite token, printed once)')
    .addOption(new Option('--role <role>', 'their role (default builder)').choices(ROLES))
    .action(run((email: string, options) => members().memberAddCommand(email, options)));
  api(member.command('list'))
    .description('list the members and their roles')
    .action(run((options) => members().memberListCommand(options)));
  api(member.command('set-role'))
    .description("change a member's role (from their next request)")
    .argument(who, 'user id or e-mail')
    .addArgument(new Argument('<role>', 'the new role').choices(ROLES))
    .action(run((user: string, role: string, options) => members().memberSetRoleCommand(user, role, options)));
  api(member.command('remove'))
    .description('remove a member from the workspace')
    .argument(who, 'user id or e-mail')
    .action(run((user: string, options) => members().memberRemoveCommand(user, options)));
}

/** Registers the token, service-token, workspace and member commands; each loads its module when it runs. */
export function registerTenancyCommands(program: Command): void {
  tokenCommands(program);
  serviceTokenCommands(program);
  workspaceCommands(program);
  memberCommands(program);
}
