import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createLogger, terminalDestination } from '../../lib/logger';

const ROOT = path.resolve(__dirname, '../..');
// A process that logs through the default destination, as every assay process does.
const LOG_ONE = `require('./lib/logger').createLogger('info').info({ token: 'tok-hidden-1234' }, 'hello from assay')`;

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

describe('logs: human-readable on a terminal, JSON otherwise', () => {
  it('writes pretty, redacted lines to a terminal stream', async () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    const text = collect(tty);
    const destination = terminalDestination(tty);
    assert.ok(destination, 'a terminal gets the pretty destination');
    createLogger('info', destination).info({ token: 'tok-hidden-1234', run: 7 }, 'hello from assay');
    const deadline = Date.now() + 10_000;
    while (!text().includes('hello from assay') && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    const plain = text().replace(/\x1b\[[0-9;]*m/g, '');
    assert.match(plain, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: hello from assay\n/);
    assert.match(plain, /run: 7/);
    assert.ok(!plain.includes('tok-hidden-1234'), 'secrets stay redacted');
    assert.throws(() => JSON.parse(plain.split('\n')[0]));
  });

  it('leaves pino JSON when the stream is not a terminal', () => {
    assert.equal(terminalDestination(Object.assign(new PassThrough(), { isTTY: false })), undefined);
  });

  it('picks by whether the process stdout is a terminal', function () {
    this.timeout(60_000);
    const node = ['--require', 'tsx/cjs', '-e', LOG_ONE];
    const piped = spawnSync(process.execPath, node, { cwd: ROOT, encoding: 'utf8' });
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(JSON.parse(piped.stdout.trim()).msg, 'hello from assay');
    // util-linux `script` runs the same process on a pseudo-terminal.
    const command = [process.execPath, ...node].map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(' ');
    const tty = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(tty.status, 0, tty.stderr);
    assert.match(tty.stdout.replace(/\x1b\[[0-9;]*m/g, ''), /INFO: hello from assay/);
    assert.ok(!tty.stdout.includes('tok-hidden-1234'));
  });
});
