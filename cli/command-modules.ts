/* eslint-disable @typescript-eslint/no-require-imports -- literal lazy loads, see below */
// Each action loads its command module only when it runs, so `agent:eval` never loads the worker, Temporal or
// Express. A literal `require('./…')`: `import()` of an extensionless path fails under Node's ESM resolver, in tsx and
// in dist/ alike, and a literal (unlike `require(id)`) is a dependency the import-boundary lint can read.

/** The command modules of cli/, each loaded on first use. */
export const commandModules = {
  start: (): typeof import('./start.command') => require('./start.command'),
  serve: (): typeof import('./serve.command') => require('./serve.command'),
  agentEval: (): typeof import('./agent-eval.command') => require('./agent-eval.command'),
  evalSetFile: (): typeof import('./eval-set-file.command') => require('./eval-set-file.command'),
  evalSetResults: (): typeof import('./eval-set-results.command') => require('./eval-set-results.command'),
  token: (): typeof import('./token.command') => require('./token.command'),
  apiTokens: (): typeof import('./api-tokens.command') => require('./api-tokens.command'),
  workspace: (): typeof import('./workspace.command') => require('./workspace.command'),
  member: (): typeof import('./member.command') => require('./member.command'),
};
