import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../api/app';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';

const UI = 'http://127.0.0.1:8233';
const assay = (args: string[], env: NodeJS.ProcessEnv): ReturnType<typeof spawnSync> =>
  spawnSync(process.execPath, ['bin/assay.js', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('assay command: configuration errors and tokens', function () {
  this.timeout(120_000);
  let platform: TestPlatform;

  before(async () => {
    platform = await createTestPlatform(await harness());
  });
  after(async () => platform?.close());

  it('stops with exit code 2 and names the variable when a setting is invalid', () => {
    for (const [variable, value] of [
      ['ASSAY_PORT', 'abc'],
      ['TEMPORAL_ADDRESS', 'no-port'],
      ['DATABASE_URL', 'mysql://x/y'],
    ]) {
      const result = assay(['api'], { [variable]: value });
      assert.equal(result.status, 2, `${variable}=${value}`);
      assert.match(String(result.stderr), new RegExp(`invalid configuration: ${variable}`));
    }
  });

  it('refuses assay api and assay worker against external services without ASSAY_MASTER_KEY, generating none', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-nokey-'));
    try {
      for (const command of ['api', 'worker']) {
        const result = assay([command], {
          DATABASE_URL: platform.config.DATABASE_URL,
          TEMPORAL_ADDRESS: platform.config.TEMPORAL_ADDRESS,
          ASSAY_MASTER_KEY: '',
          ASSAY_DATA_DIR: dataDir,
        });
        assert.equal(result.status, 2, `assay ${command}: ${String(result.stderr)}`);
        assert.match(
          String(result.stderr),
          new RegExp(`invalid configuration: ASSAY_MASTER_KEY is required by assay ${command}`),
        );
        assert.match(String(result.stderr), /two processes must never generate two keys/);
      }
      assert.deepEqual(fs.readdirSync(dataDir), [], 'no key file was generated');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops assay start with exit code 2 naming the key file when it does not hold 32 bytes', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-badkey-'));
    const keyFile = path.join(dataDir, 'master.key');
    fs.writeFileSync(keyFile, crypto.randomBytes(16).toString('base64'), { mode: 0o600 });
    try {
      const result = assay(['start'], { ASSAY_MASTER_KEY: '', ASSAY_DATA_DIR: dataDir });
      assert.equal(result.status, 2, String(result.stderr));
      assert.match(String(result.stderr), new RegExp(`invalid configuration: ${keyFile} must hold 32 bytes`));
      assert.deepEqual(fs.readdirSync(dataDir), ['master.key'], 'nothing was started in the data dir');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('issues a token from the command line that authenticates, with the chosen role, and revokes it', async () => {
    const created = assay(['token', 'create', '--email', 'ci@example.test', '--role', 'viewer'], {
      DATABASE_URL: platform.config.DATABASE_URL,
    });
    assert.equal(created.status, 0, String(created.stderr));
    const { id, token, role } = JSON.parse(String(created.stdout));
    assert.equal(role, 'viewer');
    await request(platform.app).get('/api/ai-agents').set('Authorization', `Bearer ${token}`).expect(200);
    await request(platform.app)
      .post('/api/ai-agents')
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'x', model: 'gpt-4o', instructions: '' })
      .expect(403);
    const revoked = assay(['token', 'revoke', id, '--email', 'ci@example.test'], {
      DATABASE_URL: platform.config.DATABASE_URL,
    });
    assert.equal(revoked.status, 0, String(revoked.stderr));
    await request(platform.app).get('/api/ai-agents').set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('grants the instance operator permission with --operator, which opens the codec to that token', async () => {
    const codecApp = createApp({
      config: { ...platform.config, TEMPORAL_CODEC_ORIGINS: [UI] },
      db: platform.runtime.db,
      vault: platform.runtime.vault,
      temporal: platform.runtime.temporal.client,
      logger: platform.logger,
    });
    const decode = (token: string): request.Test =>
      request(codecApp)
        .post('/codec/decode')
        .set('Origin', UI)
        .set('Authorization', `Bearer ${token}`)
        .send({ payloads: [] });
    const env = { DATABASE_URL: platform.config.DATABASE_URL };
    const plain = assay(['token', 'create', '--email', 'builder@example.test', '--role', 'owner'], env);
    assert.equal(plain.status, 0, String(plain.stderr));
    assert.equal(JSON.parse(String(plain.stdout)).operator, false);
    await decode(JSON.parse(String(plain.stdout)).token).expect(403);

    const granted = assay(['token', 'create', '--email', 'ops@example.test', '--role', 'viewer', '--operator'], env);
    assert.equal(granted.status, 0, String(granted.stderr));
    const { token, operator } = JSON.parse(String(granted.stdout));
    assert.equal(operator, true);
    await decode(token).expect(200);
    // The permission belongs to the user: a later token of the same user, created without the flag, keeps it.
    const again = assay(['token', 'create', '--email', 'ops@example.test', '--role', 'viewer'], env);
    assert.equal(JSON.parse(String(again.stdout)).operator, true);
    await decode(JSON.parse(String(again.stdout)).token).expect(200);
  });

  it('creates a builder token unless --role says otherwise', async () => {
    const env = { DATABASE_URL: platform.config.DATABASE_URL };
    const created = assay(['token', 'create', '--email', 'default-role@example.test'], env);
    assert.equal(created.status, 0, String(created.stderr));
    const { token, role } = JSON.parse(String(created.stdout));
    assert.equal(role, 'builder');
    // A builder builds (creates agents) but cannot manage integrations (an admin's permission).
    await request(platform.app)
      .post('/api/ai-agents')
      .set('Authorization', `Bearer ${token}`)
      .send({ name: 'built-by-default', model: 'gpt-4o', instructions: '' })
      .expect(201);
    await request(platform.app)
      .put('/api/workspaces/current/integrations/openai')
      .set('Authorization', `Bearer ${token}`)
      .send({ api_key: 'sk-nope' })
      .expect(403);
  });

  it("lists a user's tokens newest first, paged, with role, expiry and revocation, never a secret", async () => {
    const env = { DATABASE_URL: platform.config.DATABASE_URL };
    const email = 'lister@example.test';
    const issued = [
      ['--name', 'first', '--role', 'viewer'],
      ['--name', 'second', '--expires-in-days', '7'],
      ['--name', 'third', '--role', 'admin'],
    ].map((extra) => {
      const created = assay(['token', 'create', '--email', email, ...extra], env);
      assert.equal(created.status, 0, String(created.stderr));
      return JSON.parse(String(created.stdout)) as { id: string; token: string };
    });
    assert.equal(assay(['token', 'revoke', issued[0].id, '--email', email], env).status, 0);
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const listed = assay(
        ['token', 'list', '--email', email, '--limit', '2', ...(cursor ? ['--cursor', cursor] : [])],
        env,
      );
      assert.equal(listed.status, 0, String(listed.stderr));
      const page = JSON.parse(String(listed.stdout));
      for (const secret of issued.map((t) => t.token)) assert.ok(!String(listed.stdout).includes(secret));
      seen.push(...page.data);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 2);
    assert.deepEqual(
      seen.map((t) => t.name),
      ['third', 'second', 'first'],
    );
    assert.deepEqual(
      seen.map((t) => t.id),
      [issued[2].id, issued[1].id, issued[0].id],
    );
    // The role is the user's role in the token's workspace now: the last create made it admin.
    assert.ok(seen.every((t) => t.role === 'admin' && typeof t.workspace_id === 'string'));
    // Without --expires-in-days a token gets the longest lifetime allowed (TOKEN_MAX_DAYS, 90 by default).
    assert.ok(Date.parse(seen[0].expires_at) <= Date.now() + 90 * 86_400_000, seen[0].expires_at);
    assert.ok(Date.parse(seen[1].expires_at) > Date.now());
    assert.ok(seen[2].revoked_at !== null && seen[0].revoked_at === null);
    assert.ok(seen.every((t) => !('token' in t) && !('token_hash' in t)));

    const unknown = assay(['token', 'list', '--email', 'nobody@example.test'], env);
    assert.equal(unknown.status, 2);
    assert.match(String(unknown.stderr), /no user with e-mail nobody@example.test/);
    const badCursor = assay(['token', 'list', '--email', email, '--cursor', 'forged'], env);
    assert.equal(badCursor.status, 2);
    assert.match(String(badCursor.stderr), /--cursor is not a cursor of this list/);
  });

  it('refuses an unknown role with exit code 2', () => {
    const result = assay(['token', 'create', '--email', 'x@example.test', '--role', 'superuser'], {
      DATABASE_URL: platform.config.DATABASE_URL,
    });
    assert.equal(result.status, 2);
    assert.match(String(result.stderr), /--role must be one of owner, admin, builder, viewer/);
  });
});
