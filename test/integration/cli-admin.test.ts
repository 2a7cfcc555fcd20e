import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import request from 'supertest';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';

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

  it('refuses an unknown role with exit code 2', () => {
    const result = assay(['token', 'create', '--email', 'x@example.test', '--role', 'superuser'], {
      DATABASE_URL: platform.config.DATABASE_URL,
    });
    assert.equal(result.status, 2);
    assert.match(String(result.stderr), /--role must be one of owner, admin, builder, viewer/);
  });
});
