import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant } from '../helpers/tenants';

const secret = (label: string): string => `${label}-${crypto.randomBytes(16).toString('hex')}`;

for (const backend of ['local', 'openbao'] as const) {
  describe(`logs while secrets are handled (${backend} vault)`, () => {
    let platform: TestPlatform;

    before(async () => {
      platform = await createTestPlatform(await harness(), { vault: backend });
    });
    after(async () => platform?.close());

    it('hold neither a stored secret nor a bearer token across vault use and authenticated requests', async () => {
      const tenant = await createTenant(platform.runtime.db);
      const stored = secret('sk-live');
      const ref = { workspaceId: tenant.workspaceId, credentialId: 'integration:openai' };
      await platform.runtime.vault.put(ref, stored);
      assert.equal(await platform.runtime.vault.get(ref), stored);

      const unknownToken = `assay_${crypto.randomBytes(32).toString('base64url')}`;
      await request(platform.app).get('/api/ai-agents').set(tenant.auth).expect(200);
      await request(platform.app)
        .post('/api/ai-agents')
        .set(tenant.auth)
        .send({ name: 'logged', model: 'gpt-4o', instructions: '' })
        .expect(201);
      await request(platform.app).patch('/api/ai-agents/logged').set(tenant.auth).send({ model: 7 }).expect(422);
      await request(platform.app).get('/api/ai-agents/missing').set(tenant.auth).expect(404);
      await request(platform.app).get(`/api/ai-agents?access_token=${tenant.token}`).expect(401);
      await request(platform.app).get('/api/ai-agents').set('Authorization', `Bearer ${unknownToken}`).expect(401);
      await request(platform.app)
        .get('/api/ai-agents')
        .set('Authorization', `Basic ${Buffer.from(`u:${stored}`).toString('base64')}`)
        .expect(401);
      await platform.runtime.vault.delete(ref);

      const requestLines = platform.logs.filter((l) => JSON.parse(l).msg === 'request');
      assert.ok(requestLines.length >= 7, `expected a log line per request, got ${requestLines.length}`);
      assertLogsClean(platform.logs, [stored, tenant.token, tenant.token.slice('assay_'.length), unknownToken]);
    });
  });
}

describe('logger redaction', () => {
  let platform: TestPlatform;

  before(async () => {
    platform = await createTestPlatform(await harness());
  });
  after(async () => platform?.close());

  it('blanks secret-bearing fields at any depth and keeps the rest of the line', async () => {
    const secrets = Array.from({ length: 9 }, (_, i) => secret(`s${i}`));
    platform.logger.info(
      {
        secret_value: secrets[0],
        api_key: secrets[1],
        headers: { authorization: `Bearer ${secrets[2]}`, 'x-vault-token': secrets[3] },
        nested: { provider: { credentials: { api_key: secrets[4], password: secrets[5] } } },
        servers: [{ name: 'github', env: { token: secrets[6] } }],
        req: { headers: { authorization: `Bearer ${secrets[7]}`, cookie: `session=${secrets[8]}` } },
        kept: 'visible-marker',
      },
      'config loaded',
    );
    const line = platform.logs.find((l) => l.includes('config loaded'));
    assert.ok(line, 'the line was logged');
    assert.match(line, /visible-marker/);
    assert.match(line, /\[redacted\]/);
    assertLogsClean(platform.logs, secrets);
  });

  it('blanks secret-bearing fields an error carries, logged alone or under err', async () => {
    const values = [secret('err-a'), secret('err-b')];
    const error = Object.assign(new Error('vault request failed'), {
      options: { headers: { 'X-Vault-Token': values[0] }, json: { data: { value: values[1] } } },
    });
    platform.logger.error(error);
    platform.logger.error({ err: error, request_id: 'r1' }, 'wrapped failure');
    const lines = platform.logs.filter((l) => l.includes('vault request failed'));
    assert.equal(lines.length, 2);
    for (const line of lines) assert.match(line, /"stack":"Error: vault request failed/);
    assertLogsClean(platform.logs, values);
  });

  it('logs a row holding bytes and a URL without throwing, showing only the byte count', async () => {
    const nonce = crypto.randomBytes(12);
    platform.logger.info({ row: { nonce, endpoint: new URL('http://127.0.0.1:1/x') } }, 'row with bytes');
    const line = platform.logs.find((l) => l.includes('row with bytes'));
    assert.ok(line);
    assert.equal(JSON.parse(line).row.nonce, '[12 bytes]');
    assert.equal(JSON.parse(line).row.endpoint, 'http://127.0.0.1:1/x');
    assertLogsClean(platform.logs, [nonce.toString('hex')]);
  });

  it('blanks secret-bearing fields of a child logger’s bindings', async () => {
    const value = secret('bound');
    platform.logger
      .child({ scope: 'a' })
      .child({ api_key: value, headers: { authorization: `Bearer ${value}` }, deep: { a: { b: { token: value } } } })
      .info('child line');
    assert.ok(platform.logs.some((l) => l.includes('child line')));
    assertLogsClean(platform.logs, [value]);
  });
});
