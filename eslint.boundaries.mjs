// The rooms of ../shared/ARCHITECTURE.md ("Rooms" and "Never") as import rules, with eslint-plugin-boundaries.
// It classifies both ends of an import by the *resolved* file (so `../../workflows/x` and `./x` are judged alike),
// tells `import type` from a value import (the api may import workflow types but no workflow code, which
// import-x/no-restricted-paths cannot express), and sees node built-ins and npm packages as modules with an origin,
// so one list of policies covers rooms, built-ins and packages.
import boundaries from 'eslint-plugin-boundaries';

/**
 * Packages that do I/O (network, database, processes, vault, terminal): never in `domain/` or `workflows/`. Matched
 * on the package name, so their subpaths (`kysely/migration`, `openai/resources/…`) are covered too.
 */
const IO_PACKAGES = [
  'pg',
  'kysely',
  'undici',
  'openai',
  'express',
  'ws',
  'node-vault',
  '@modelcontextprotocol/sdk',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/activity',
  'pino',
  'commander',
  'cli-progress',
  'cli-table3',
];

/** Files that test/unit/lint-boundaries.test.ts lints as if they sat in the room they are filed under. */
export const LINT_FIXTURES = 'test/fixtures/lint';

// One element per room (a folder); imports inside a room are not checked.
const elements = [
  ...['domain', 'workflows', 'activities', 'lib', 'db', 'api', 'worker', 'cli'].map((room) => ({
    type: room,
    pattern: [room, `${LINT_FIXTURES}/${room}`],
  })),
  { type: 'test', pattern: 'test' },
  { type: 'bench', pattern: 'bench' },
];

const to = (type) => ({ to: { element: { type } } });
const rooms = (from, allowed, more = []) => ({
  from: { element: { type: from } },
  allow: [...allowed.map(to), ...more],
});
/** `workflows/temporal-names.ts`: task-queue names, workflow ids and search-attribute keys, no workflow code. */
const temporalNames = { to: { element: { type: 'workflows', fileInternalPath: 'temporal-names.ts' } } };
const typesOnly = (type) => ({ ...to(type), dependency: { kind: 'type' } });

/** Who may import whom: the "may import" column of the table; later policies override earlier ones. */
const policies = [
  // npm packages and node built-ins: allowed, except where the last policy takes them away.
  { allow: { to: { module: { origin: ['external', 'core'] } } } },
  rooms('domain', []),
  rooms('workflows', ['domain'], [typesOnly('activities')]),
  rooms('activities', ['domain', 'lib', 'db']),
  rooms('lib', ['domain', 'db']),
  rooms('db', ['domain']),
  // The api names workflows (ids, search attributes) and starts them by name with `import type`: no workflow code.
  rooms('api', ['domain', 'lib', 'db'], [temporalNames, typesOnly('workflows')]),
  rooms('worker', ['domain', 'lib', 'db', 'activities', 'workflows']),
  rooms('cli', ['domain', 'lib', 'db'], [temporalNames]),
  // The one module that composes the api and the worker (for `assay start`, `assay api`, `assay worker`).
  { from: { element: { type: 'cli', fileInternalPath: 'services.ts' } }, allow: [to('api'), to('worker')] },
  { from: { element: { types: ['test', 'bench'] } }, allow: { to: { element: { type: '*' } } } },
  // Never: node built-ins or I/O packages in workflow-safe code (the Temporal sandbox forbids them anyway).
  {
    from: { element: { types: ['domain', 'workflows'] } },
    disallow: [{ to: { module: { origin: 'core' } } }, { to: { module: { origin: 'external', source: IO_PACKAGES } } }],
    message: 'domain/ and workflows/ stay pure: no node built-ins or I/O packages (ARCHITECTURE.md, "Never")',
  },
];

/** The flat-config block that enforces the rooms on every TypeScript file. */
export const boundariesConfig = {
  files: ['**/*.ts'],
  plugins: { boundaries },
  settings: {
    'boundaries/elements': elements,
    'import/resolver': { node: { extensions: ['.ts', '.js', '.json'] } },
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        // Judge npm packages and node built-ins too, not only our own files.
        checkAllOrigins: true,
        message: 'this import breaks the rooms of ARCHITECTURE.md (see the README layout table)',
        policies,
      },
    ],
  },
};
