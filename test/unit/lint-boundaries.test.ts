import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = 'test/fixtures/lint';
/** The comment that marks a line of a fixture whose dependency the rule must report. */
const MARK = /\/\/ forbidden: (.+)$/;

/** The rooms of eslint.boundaries.mjs that may not import everything, each with its fixture of every form. */
const ROOMS_WITH_LIMITS: Array<[string, string]> = [
  ['domain', 'domain/forbidden-forms.ts'],
  ['workflows', 'workflows/forbidden-forms.ts'],
  ['activities', 'activities/forbidden-forms.ts'],
  ['lib/outbound', 'lib/outbound/forbidden-forms.ts'],
  ['lib', 'lib/forbidden-forms.ts'],
  ['db', 'db/forbidden-forms.ts'],
  ['api', 'api/forbidden-forms.ts'],
  ['worker', 'worker/forbidden-forms.ts'],
  ['gateway', 'gateway/forbidden-forms.ts'],
  ['cli', 'cli/forbidden-forms.ts'],
];
const FORMS = ['import', 'type import', 'export from', 'require', 'dynamic import'];

// Each fixture is linted with the project's own eslint.config.mjs as a file of the room it is filed under
// (test/fixtures/lint/<room>/…); `npm run lint` ignores them, so only this test sees their forbidden imports.
describe('import boundaries (eslint.boundaries.mjs enforcing ARCHITECTURE.md)', function () {
  this.timeout(300_000);
  const reported = new Map<string, string[]>();
  /** Per fixture, every `boundaries/*` report as `<line> <rule>`. */
  const reportedLines = new Map<string, string[]>();

  before(async () => {
    const eslint = new ESLint({ cwd: ROOT, ignore: false });
    for (const result of await eslint.lintFiles([FIXTURES])) {
      const fatal = result.messages.find((message) => message.fatal);
      assert.equal(fatal, undefined, `${result.filePath} did not parse: ${fatal?.message}`);
      const boundaryMessages = result.messages.filter((message) => message.ruleId === 'boundaries/dependencies');
      const file = path.relative(path.join(ROOT, FIXTURES), result.filePath);
      reported.set(
        file,
        boundaryMessages.map((m) => m.message),
      );
      const anyBoundary = result.messages.filter((message) => message.ruleId?.startsWith('boundaries/'));
      reportedLines.set(
        file,
        anyBoundary.map((m) => `${m.line} ${m.ruleId}`),
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

  for (const [room, file] of ROOMS_WITH_LIMITS) {
    it(`reports a forbidden dependency of every form in ${room}/, and only those`, () => {
      const lines = fs.readFileSync(path.join(ROOT, FIXTURES, file), 'utf8').split('\n');
      const forms = lines.flatMap((line) => MARK.exec(line)?.[1] ?? []);
      // A dependency that resolves is judged by the rooms' policies; one that does not is refused as unknown.
      const rule = (form: string): string =>
        form === 'unresolved' ? 'boundaries/no-unknown-dependencies' : 'boundaries/dependencies';
      const marked = lines.flatMap((line, index) => {
        const form = MARK.exec(line)?.[1];
        return form === undefined ? [] : [`${index + 1} ${rule(form)}`];
      });
      for (const form of FORMS) assert.ok(forms.includes(form), `${file} has a forbidden ${form}`);
      assert.ok(reportedLines.has(file), `${file} was linted`);
      assert.deepEqual(reportedLines.get(file), marked, `the reported lines of ${file} are the marked ones`);
    });
  }

  it('reports a file in a folder that is in no room', () => {
    const file = 'unknown-room/new-folder.ts';
    assert.ok(reportedLines.has(file), `${file} was linted`);
    assert.deepEqual(reportedLines.get(file), ['1 boundaries/no-unknown-files']);
  });

  for (const file of ['workflows/allowed.ts', 'api/routes/allowed-workflow-type.ts']) {
    it(`accepts the allowed imports of ${file}`, () => {
      assert.ok(reported.has(file), `${file} was linted`);
      assert.deepEqual(reported.get(file), []);
    });
  }
});
