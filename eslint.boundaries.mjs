// The rooms of ../shared/ARCHITECTURE.md ("Rooms" and "Never") as import rules, with eslint-plugin-boundaries.
// It classifies both ends of a dependency by the *resolved* file (so `../../workflows/x` and `./x` are judged alike),
// tells `import type` from a value import, and sees node built-ins and npm packages as modules with an origin, so
// one list of allow policies covers rooms, built-ins and packages: what a room's policy does not allow is refused.
// Every dependency form is read: import, import type, export … from, require('…'), import('…') and the
// TypeScript forms `import x = require('…')` and `typeof import('…')`.
import boundaries from 'eslint-plugin-boundaries';

/** Files that test/unit/lint-boundaries.test.ts lints as if they sat in the room they are filed under. */
export const LINT_FIXTURES = 'test/fixtures/lint';

const words = (text) => text.split(' ').filter(Boolean);
/**
 * A room: its folder (its type is the folder's last name), the rooms and npm packages it may import (space-separated
 * micromatch patterns), and its node built-ins: all, none, or a list.
 */
const room = (folder, rooms, packages, core = true) => ({
  type: folder.split('/').pop(),
  folder,
  rooms: words(rooms),
  packages: words(packages),
  core,
});

/**
 * The rooms, most specific folder first (a file belongs to the first room whose folder holds it, at any depth), with
 * the rooms and npm packages each may import (its own room is always allowed). A package is matched by its name, so
 * its subpaths (`kysely/migration`) come with it.
 */
const ROOMS = [
  room('domain', '', 'zod re2js', false),
  room('workflows', 'domain', '@temporalio/{workflow,common}', false),
  room('activities', 'domain lib outbound db', '@temporalio/{activity,common,client} @opentelemetry/api'),
  // Everything that dials out: used by activities/, gateway/ and the worker that wires them, never by the api. (ajv:
  // the MCP SDK's own validator, configured for linear output-schema checks.)
  room('lib/outbound', 'domain lib db', 'undici openai @modelcontextprotocol/sdk ajv ipaddr.js kysely'),
  room('lib', 'domain db', 'zod pg pino pino-pretty prom-client node-vault ipaddr.js @temporalio/* @opentelemetry/*'),
  room('db', 'domain', 'kysely pg zod', ['node:crypto']),
  // The api serves; it never dials out: no outbound client, no node:net, node:tls, node:dns, node:https.
  room(
    'api',
    'domain lib db',
    'zod express ws kysely @asteasolutions/zod-to-openapi @temporalio/{client,common,proto} ' +
      '@opentelemetry/{api,semantic-conventions}',
    words('node:http node:stream node:crypto node:path node:url node:util node:events'),
  ),
  room('worker', 'domain lib outbound db activities workflows gateway', '@temporalio/*'),
  room('gateway', 'domain lib outbound db', 'zod express kysely @modelcontextprotocol/sdk @opentelemetry/api'),
  room('cli', 'domain lib db', 'commander cli-table3 cli-progress express zod'),
  room('test', '*', '* @*/*'),
  room('bench', '*', '* @*/*'),
];

// A file of `test/fixtures/lint/<room>/` is linted as a file of that room; any other file of the fixtures is in no
// room, like a new top-level folder, so `boundaries/no-unknown-files` reports it.
const elements = [
  ...ROOMS.filter(({ type }) => type !== 'test').map(({ type, folder }) => ({
    type,
    partialMatch: false,
    pattern: [`${folder}/**`, `${LINT_FIXTURES}/${folder}/**`],
  })),
  { type: 'test', partialMatch: false, pattern: ['test/!(fixtures)/**', 'test/fixtures/!(lint)/**'] },
];

const to = (type) => ({ to: { element: { type } } });
const typesOnly = (type) => ({ ...to(type), dependency: { kind: 'type' } });
const coreModules = (core) => ({ to: { module: { origin: 'core', ...(core === true ? {} : { source: core }) } } });
/** `workflows/temporal-names.ts`: task-queue names, workflow ids and search-attribute keys, no workflow code. */
const temporalNames = { to: { element: { type: 'workflows', fileInternalPath: 'temporal-names.ts' } } };

/** Room-specific exceptions to the table, each named after a row of ARCHITECTURE.md. */
const EXTRA = {
  // Workflows call activities through proxies typed by the activity modules: types only, no activity code.
  workflows: [typesOnly('activities')],
  // The api names workflows (ids, search attributes) and starts them by name with `import type`: no workflow code.
  api: [temporalNames, typesOnly('workflows')],
  cli: [temporalNames],
};

/** Who may import whom: the "may import" column of the table; a dependency no policy allows is refused. */
const policies = [
  ...ROOMS.map(({ type, rooms, packages, core }) => ({
    from: { element: { type } },
    allow: [
      ...[type, ...rooms].map(to),
      { to: { module: { origin: 'external', source: packages } } },
      ...(core === false ? [] : [coreModules(core)]),
      ...(EXTRA[type] ?? []),
    ],
  })),
  // The one module that composes the api, the worker and the gateway (for `assay start`, `assay api`, …).
  {
    from: { element: { type: 'cli', fileInternalPath: 'services.ts' } },
    allow: [to('api'), to('worker'), to('gateway')],
  },
];

/** The TypeScript dependency forms the plugin does not read by default. */
const typescriptDependencyNodes = [
  { selector: 'TSExternalModuleReference > Literal', kind: 'value', name: 'import-equals' },
  { selector: 'TSImportType > Literal', kind: 'type', name: 'type-import' },
];

/** The flat-config block that enforces the rooms on every TypeScript file. */
export const boundariesConfig = {
  files: ['**/*.ts'],
  plugins: { boundaries },
  settings: {
    'boundaries/elements': elements,
    'boundaries/dependency-nodes': ['import', 'export', 'require', 'dynamic-import'],
    'boundaries/additional-dependency-nodes': typescriptDependencyNodes,
    'import/resolver': { node: { extensions: ['.ts', '.js', '.json'] } },
  },
  rules: {
    // A file outside every room (a new top-level folder) must be placed in one first.
    'boundaries/no-unknown-files': 'error',
    // A local dependency that resolves to no room's file (or to no file: `./x.js` for `./x.ts`) is refused, not let
    // through unjudged.
    'boundaries/no-unknown-dependencies': 'error',
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
