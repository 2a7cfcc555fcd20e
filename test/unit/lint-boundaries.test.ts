import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = 'test/fixtures/lint';

// Each fixture is linted with the project's own eslint.config.mjs as a file of the room it is filed under
// (test/fixtures/lint/<room>/…); `npm run lint` ignores them, so only this test sees their forbidden imports.
describe('import boundaries (eslint.boundaries.mjs enforcing ARCHITECTURE.md)', function () {
  this.timeout(300_000);
  const reported = new Map<string, string[]>();

  before(async () => {
    const eslint = new ESLint({ cwd: ROOT, ignore: false });
    for (const result of await eslint.lintFiles([FIXTURES])) {
      const fatal = result.messages.find((message) => message.fatal);
      assert.equal(fatal, undefined, `${result.filePath} did not parse: ${fatal?.message}`);
      const boundaryMessages = result.messages.filter((message) => message.ruleId === 'boundaries/dependencies');
      reported.set(
        path.relative(path.join(ROOT, FIXTURES), result.filePath),
        boundaryMessages.map((m) => m.message),
      );
    }
  });

  const forbidden: Array<[string, string]> = [
    ['workflows/forbidden-node-builtin.ts', 'a node built-in in workflows/'],
    ['workflows/forbidden-io-subpath.ts', 'an I/O package by a subpath in workflows/'],
    ['workflows/forbidden-activity-value.ts', 'activity code (not a type) in workflows/'],
    ['domain/forbidden-io-package.ts', 'an I/O package in domain/'],
    ['domain/forbidden-lib.ts', 'lib/ in domain/'],
    ['db/forbidden-api.ts', 'api/ in db/'],
    ['api/routes/forbidden-workflow-value.ts', 'a workflow function as a value in api/'],
    ['cli/forbidden-api.ts', 'api/ in a cli/ module other than the composing one'],
  ];
  for (const [file, what] of forbidden) {
    it(`reports ${what}`, () => {
      assert.ok(reported.has(file), `${file} was linted`);
      assert.equal(reported.get(file)?.length, 1, `one boundary error in ${file}: ${reported.get(file)?.join('; ')}`);
    });
  }

  for (const file of ['workflows/allowed.ts', 'api/routes/allowed-workflow-type.ts']) {
    it(`accepts the allowed imports of ${file}`, () => {
      assert.ok(reported.has(file), `${file} was linted`);
      assert.deepEqual(reported.get(file), []);
    });
  }
});
