import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../lib/config';
import { loadMasterKey, requireSharedMasterKey } from '../../lib/master-key';

describe('master key', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-key-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('generates 32 random bytes into a 0600 file once, then reads the same key back', () => {
    const key = loadMasterKey(undefined, dataDir);
    assert.equal(key.length, 32);
    assert.equal(fs.statSync(path.join(dataDir, 'master.key')).mode & 0o777, 0o600);
    assert.deepEqual(loadMasterKey(undefined, dataDir), key);
  });

  for (const [label, content] of [
    ['16 bytes', crypto.randomBytes(16).toString('base64')],
    ['33 bytes', crypto.randomBytes(33).toString('base64')],
    ['a truncated key', crypto.randomBytes(32).toString('base64').slice(0, 40)],
    ['text that is not base64', 'x'.repeat(44)],
    ['an empty file', ''],
  ]) {
    it(`refuses a key file holding ${label}, naming the file and not echoing its content`, () => {
      const file = path.join(dataDir, 'master.key');
      fs.writeFileSync(file, content, { mode: 0o600 });
      assert.throws(
        () => loadMasterKey(undefined, dataDir),
        (error: Error) =>
          error instanceof ConfigError &&
          error.variable === file &&
          /32 bytes/.test(error.message) &&
          (content === '' || !error.message.includes(content)),
      );
    });
  }

  it('accepts a key file with a trailing newline, as editors and echo write it', () => {
    const key = crypto.randomBytes(32);
    fs.writeFileSync(path.join(dataDir, 'master.key'), `${key.toString('base64')}\n`);
    assert.deepEqual(loadMasterKey(undefined, dataDir), key);
  });

  it('requires the shared key of api and worker processes, saying why', () => {
    assert.throws(
      () => requireSharedMasterKey(undefined, 'assay worker'),
      (error: Error) =>
        error instanceof ConfigError &&
        error.variable === 'ASSAY_MASTER_KEY' &&
        /assay worker/.test(error.message) &&
        /two processes must never generate two keys/.test(error.message),
    );
    assert.doesNotThrow(() => requireSharedMasterKey(crypto.randomBytes(32).toString('base64'), 'assay api'));
  });
});
