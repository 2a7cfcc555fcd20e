import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../lib/embedded/process-utils';

const RECORDER = path.join(__dirname, '..', 'helpers', 'module-recorder.js');

// Runs `assay` with a preload that records every module the process loaded; answers the exit code and that list.
function loadedModules(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; modules: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-modules-'));
  const record = path.join(dir, 'modules.txt');
  try {
    const result = spawnSync(process.execPath, ['--require', RECORDER, 'bin/assay.js', ...args], {
      env: { ...process.env, MODULE_RECORD: record, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: result.status, modules: fs.readFileSync(record, 'utf8').split('\n') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const HEAVY = [
  `${path.sep}node_modules${path.sep}express${path.sep}`,
  `${path.sep}node_modules${path.sep}@temporalio${path.sep}worker${path.sep}`,
  `${path.sep}node_modules${path.sep}@temporalio${path.sep}client${path.sep}`,
  `${path.sep}worker${path.sep}worker.ts`,
  `${path.sep}api${path.sep}app.ts`,
];
const heavyIn = (modules: string[]): string[] => modules.filter((m) => HEAVY.some((heavy) => m.includes(heavy)));

describe('assay loads each command lazily', function () {
  this.timeout(60_000);

  it('agent:eval loads neither Express, the api nor the Temporal worker or client', async () => {
    const port = await freePort();
    const { status, modules } = loadedModules(['agent:eval', 'bot', 'smoke', '--url', `http://127.0.0.1:${port}`], {
      ASSAY_TOKEN: 'x',
    });
    assert.equal(status, 2, 'the run failed on the closed port, after the command module loaded');
    assert.ok(
      modules.some((m) => m.endsWith(`cli${path.sep}agent-eval.command.ts`)),
      'the recorder saw the command',
    );
    assert.deepEqual(heavyIn(modules), []);
  });

  it('the HTTP commands of workspaces, members and tokens load neither the api, Temporal nor the database', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const database = [
      `${path.sep}node_modules${path.sep}pg${path.sep}`,
      `${path.sep}node_modules${path.sep}kysely${path.sep}`,
    ];
    for (const args of [
      ['workspace', 'list'],
      ['member', 'add', 'a@example.test'],
      ['token', 'revoke', 'x'],
      ['service-token', 'create', '--name', 'ci'],
    ]) {
      const { status, modules } = loadedModules([...args, '--url', url], { ASSAY_TOKEN: 'x' });
      assert.equal(status, 2, `${args.join(' ')} failed on the closed port, after its command module loaded`);
      assert.ok(
        modules.some((m) => m.endsWith('.command.ts')),
        `${args.join(' ')}: the recorder saw the command`,
      );
      assert.deepEqual(heavyIn(modules), [], args.join(' '));
      assert.deepEqual(
        modules.filter((m) => database.some((d) => m.includes(d))),
        [],
        args.join(' '),
      );
    }
  });

  it('the recorder sees Express and Temporal when a command does load them (assay api)', () => {
    // An invalid port stops `assay api` at its configuration, after its command module (and the api) loaded.
    const { status, modules } = loadedModules(['api'], { ASSAY_PORT: 'abc' });
    assert.equal(status, 2);
    const heavy = heavyIn(modules);
    assert.ok(
      heavy.some((m) => m.includes(`${path.sep}express${path.sep}`)),
      `express among ${heavy.length} heavy modules`,
    );
    assert.ok(heavy.some((m) => m.includes(`${path.sep}@temporalio${path.sep}worker${path.sep}`)));
  });

  it('--version loads no command module', () => {
    const { status, modules } = loadedModules(['--version']);
    assert.equal(status, 0);
    assert.deepEqual(
      modules.filter((m) => /\.command\.ts$/.test(m)),
      [],
    );
  });
});
