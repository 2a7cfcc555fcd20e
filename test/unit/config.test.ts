import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../lib/config';

function rejects(env: NodeJS.ProcessEnv, variable: string): void {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.equal(error.variable, variable);
      assert.match(error.message, new RegExp(`\\b${variable}\\b`));
      return true;
    },
  );
}

describe('configuration', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    assert.equal(config.ASSAY_HOST, '127.0.0.1');
    assert.equal(config.ASSAY_PORT, 3000);
    assert.equal(config.ASSAY_DATA_DIR, '.data');
    assert.equal(config.dataDir, path.resolve('.data'));
    assert.equal(config.TEMPORAL_NAMESPACE, 'default');
    assert.equal(config.TEMPORAL_TASK_QUEUE, 'assay');
    assert.equal(config.VAULT_KV_MOUNT, 'secret');
    assert.equal(config.BODY_LIMIT, '1mb');
    assert.equal(config.LOG_LEVEL, 'info');
    assert.equal(config.EVAL_CONCURRENCY, 8);
    assert.equal(config.WORKSPACE_EVAL_CONCURRENCY, 8);
    assert.equal(config.WORKSPACE_CREATION, 'operators');
    assert.equal(config.DATABASE_URL, undefined);
    assert.equal(config.TEMPORAL_ADDRESS, undefined);
    assert.equal(config.VAULT_ADDR, undefined);
    assert.equal(config.ASSAY_MASTER_KEY, undefined);
  });

  it('treats empty strings as unset', () => {
    const config = loadConfig({
      ASSAY_PORT: '',
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
      VAULT_ADDR: '',
      VAULT_TOKEN: '',
      LOG_LEVEL: '',
      ASSAY_MASTER_KEY: '',
    });
    assert.equal(config.ASSAY_PORT, 3000);
    assert.equal(config.DATABASE_URL, undefined);
    assert.equal(config.VAULT_ADDR, undefined);
    assert.equal(config.LOG_LEVEL, 'info');
  });

  it('reads valid values and ignores unrelated variables', () => {
    const key = crypto.randomBytes(32).toString('base64');
    const config = loadConfig({
      ASSAY_PORT: '8080',
      TEMPORAL_ADDRESS: 'temporal:7233',
      DATABASE_URL: 'postgres://u:p@db:5432/assay',
      VAULT_ADDR: 'http://vault:8200',
      VAULT_TOKEN: 'root',
      ASSAY_MASTER_KEY: key,
      EVAL_CONCURRENCY: '16',
      WORKSPACE_EVAL_CONCURRENCY: '3',
      HOME: '/root',
    });
    assert.equal(config.ASSAY_PORT, 8080);
    assert.equal(config.TEMPORAL_ADDRESS, 'temporal:7233');
    assert.equal(config.ASSAY_MASTER_KEY, key);
    assert.equal(config.EVAL_CONCURRENCY, 16);
    assert.equal(config.WORKSPACE_EVAL_CONCURRENCY, 3);
    assert.equal((config as Record<string, unknown>).HOME, undefined);
  });

  for (const [variable, value] of [
    ['ASSAY_PORT', 'abc'],
    ['ASSAY_PORT', '70000'],
    ['ASSAY_PORT', '-1'],
    ['ASSAY_PORT', '80.5'],
    ['ASSAY_PORT', ' '],
    ['ASSAY_PORT', '0x50'],
    ['ASSAY_PORT', '1e3'],
    ['PG_PORT', 'five'],
    ['TEMPORAL_ADDRESS', 'nope'],
    ['TEMPORAL_ADDRESS', 'http://temporal:7233'],
    ['DATABASE_URL', 'not a url'],
    ['VAULT_ADDR', 'vault:8200x'],
    ['ASSAY_MASTER_KEY', Buffer.alloc(16).toString('base64')],
    ['ASSAY_MASTER_KEY', 'x'.repeat(44)],
    ['VAULT_KV_MOUNT', 'secret/../sys'],
    ['BODY_LIMIT', 'lots'],
    ['LOG_LEVEL', 'verbose'],
    ['EVAL_CONCURRENCY', '0'],
    ['EVAL_CONCURRENCY', 'many'],
    ['WORKSPACE_EVAL_CONCURRENCY', '0'],
    ['WORKSPACE_EVAL_CONCURRENCY', '2.5'],
    ['WORKSPACE_EVAL_CONCURRENCY', '257'],
    ['WORKSPACE_CREATION', 'everyone'],
  ] as const) {
    it(`rejects ${variable}=${JSON.stringify(value.length > 16 ? `${value.slice(0, 16)}…` : value)} naming the variable`, () => {
      rejects({ [variable]: value }, variable);
    });
  }

  it('requires VAULT_TOKEN when VAULT_ADDR is set', () => {
    rejects({ VAULT_ADDR: 'http://127.0.0.1:8200' }, 'VAULT_TOKEN');
    rejects({ VAULT_ADDR: 'http://127.0.0.1:8200', VAULT_TOKEN: '' }, 'VAULT_TOKEN');
  });

  it('does not echo a rejected value, which may be a secret', () => {
    const key = `${crypto.randomBytes(20).toString('hex')}!`;
    assert.throws(
      () => loadConfig({ ASSAY_MASTER_KEY: key }),
      (error: Error) => !error.message.includes(key),
    );
  });
});
