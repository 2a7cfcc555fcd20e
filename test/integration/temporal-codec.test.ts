import assert from 'node:assert/strict';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Express } from 'express';
import request from 'supertest';
import { grantOperator } from '../../db/account.repository';
import { revokeApiToken } from '../../db/api-token.repository';
import type { Config } from '../../lib/config';
import { harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { appWithConfig, createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const UI = 'http://127.0.0.1:8233';
const SECRET_TEXT = 'readable in the UI only to operators';
const b64 = (bytes: Uint8Array | null | undefined): string => Buffer.from(bytes ?? []).toString('base64');

describe('remote codec for the Temporal Web UI', () => {
  let platform: TestPlatform;
  let closed: TestPlatform;
  let operator: Tenant;
  let owner: Tenant;
  let wire: { payloads: Array<{ metadata: Record<string, string>; data: string }> };

  /** The app as `assay start` builds it with its embedded Temporal UI, under another bind configuration. */
  const embeddedApp = (config: Partial<Config>): Express => appWithConfig(platform, config, true);
  const decode = (app: Express, token?: string): request.Test => {
    const req = request(app).post('/codec/decode').set('Origin', UI).set('X-Namespace', 'default');
    return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(wire);
  };

  before(async () => {
    const h = await harness();
    platform = await createTestPlatform(h, { env: { TEMPORAL_CODEC_ORIGINS: UI } });
    closed = await createTestPlatform(h);
    operator = await createTenant(platform.runtime.db, 'viewer');
    await grantOperator(platform.runtime.db, operator.userId);
    owner = await createTenant(platform.runtime.db, 'owner');
    const codec = platform.runtime.dataConverter.payloadCodecs?.[0];
    assert.ok(codec);
    const [sealed] = await codec.encode([defaultPayloadConverter.toPayload({ message: SECRET_TEXT })]);
    wire = {
      payloads: [
        {
          metadata: Object.fromEntries(Object.entries(sealed.metadata ?? {}).map(([k, v]) => [k, b64(v)])),
          data: b64(sealed.data),
        },
      ],
    };
    assert.doesNotMatch(Buffer.from(wire.payloads[0].data, 'base64').toString('latin1'), new RegExp(SECRET_TEXT));
  });
  after(async () => {
    await platform?.close();
    await closed?.close();
  });

  it("decodes encrypted payloads for an operator's token from the allowed UI origin, and encodes them back", async () => {
    const decoded = await decode(platform.app, operator.token).expect(200);
    assert.equal(decoded.headers['access-control-allow-origin'], UI);
    const plain = decoded.body.payloads[0];
    assert.equal(Buffer.from(plain.metadata.encoding, 'base64').toString(), 'json/plain');
    assert.deepEqual(JSON.parse(Buffer.from(plain.data, 'base64').toString()), { message: SECRET_TEXT });

    const encoded = await request(platform.app)
      .post('/codec/encode')
      .set('Origin', UI)
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ payloads: [plain] })
      .expect(200);
    assert.equal(Buffer.from(encoded.body.payloads[0].metadata.encoding, 'base64').toString(), 'binary/encrypted');
  });

  it('answers 401 without a token, with an unknown one and with a revoked one', async () => {
    const none = await decode(platform.app).expect(401);
    assert.equal(none.body.error.code, 'unauthorized');
    assert.equal(none.headers['access-control-allow-origin'], UI, 'the UI can read why it was refused');
    assert.equal((await decode(platform.app, 'assay_not-a-real-token').expect(401)).body.error.code, 'unauthorized');
    const revoked = await createTenant(platform.runtime.db, 'owner');
    await grantOperator(platform.runtime.db, revoked.userId);
    await decode(platform.app, revoked.token).expect(200);
    const [{ id }] = await platform.runtime.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', revoked.userId)
      .execute();
    assert.ok(await revokeApiToken(platform.runtime.db, revoked.userId, id));
    assert.equal((await decode(platform.app, revoked.token).expect(401)).body.error.message, 'token revoked');
  });

  it('answers 403 to the owner of a workspace who is not an operator, with the usual error body', async () => {
    const refused = await decode(platform.app, owner.token).expect(403);
    assert.deepEqual(refused.body, {
      error: { code: 'forbidden', message: 'missing permission operator', details: { permission: 'operator' } },
    });
    const encode = await request(platform.app)
      .post('/codec/encode')
      .set('Origin', UI)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ payloads: [{ metadata: { encoding: b64(Buffer.from('json/plain')) }, data: b64(Buffer.from('1')) }] })
      .expect(403);
    assert.equal(encode.body.error.code, 'forbidden');
  });

  it('logs every use with who asked and how many payloads, never the payloads', async () => {
    const before = platform.logs.length;
    await decode(platform.app, operator.token).expect(200);
    const lines = platform.logs.slice(before).map((line) => JSON.parse(line));
    const used = lines.find((line) => line.component === 'codec');
    assert.ok(used, `no codec log line among ${JSON.stringify(lines)}`);
    const tokenRow = await platform.runtime.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', operator.userId)
      .executeTakeFirstOrThrow();
    assert.equal(used.user_id, operator.userId);
    assert.equal(used.token_id, tokenRow.id);
    assert.equal(used.direction, 'decode');
    assert.equal(used.payloads, 1);
    assert.equal(used.outcome, 'ok');
    assertLogsClean(platform.logs, [
      SECRET_TEXT,
      JSON.stringify({ message: SECRET_TEXT }),
      wire.payloads[0].data,
      operator.token,
    ]);
  });

  it('answers the browser preflight with CORS headers for the UI origin only, without a token', async () => {
    const ok = await request(platform.app).options('/codec/decode').set('Origin', UI).expect(204);
    assert.match(String(ok.headers['access-control-allow-headers']), /Authorization/);
    assert.match(String(ok.headers['access-control-allow-headers']), /X-Namespace/);
    await request(platform.app).options('/codec/decode').set('Origin', 'http://evil.test').expect(403);
  });

  it("refuses other origins and requests without one, even with an operator's token, and tampered payloads", async () => {
    const body = {
      payloads: [{ metadata: { encoding: b64(Buffer.from('binary/encrypted')) }, data: b64(Buffer.alloc(40, 1)) }],
    };
    const auth = `Bearer ${operator.token}`;
    await request(platform.app).post('/codec/decode').set('Authorization', auth).send(body).expect(403);
    await request(platform.app)
      .post('/codec/decode')
      .set('Origin', 'http://evil.test')
      .set('Authorization', auth)
      .send(body)
      .expect(403);
    const tampered = await request(platform.app)
      .post('/codec/decode')
      .set('Origin', UI)
      .set('Authorization', auth)
      .send(body)
      .expect(422);
    assert.equal(tampered.body.error.code, 'codec_failed');
  });

  it('lets the embedded dev UI decode without a token only while the api is loopback-only', async () => {
    for (const host of ['127.0.0.1', '::1', 'localhost']) {
      const open = await decode(embeddedApp({ ASSAY_HOST: host })).expect(200);
      assert.deepEqual(JSON.parse(Buffer.from(open.body.payloads[0].data, 'base64').toString()), {
        message: SECRET_TEXT,
      });
    }
    const loopback = embeddedApp({ ASSAY_HOST: '127.0.0.1' });
    // A token, when sent, is still checked.
    await decode(loopback, 'assay_not-a-real-token').expect(401);
    await decode(loopback, owner.token).expect(403);
    const before = platform.logs.length;
    await decode(loopback).expect(200);
    const used = platform.logs
      .slice(before)
      .map((line) => JSON.parse(line))
      .find((line) => line.component === 'codec');
    assert.deepEqual([used.user_id, used.token_id, used.payloads], [null, null, 1]);

    for (const config of [
      { ASSAY_HOST: '0.0.0.0' },
      { ASSAY_HOST: '192.0.2.10' },
      { ASSAY_HOST: '127.0.0.1', ASSAY_PUBLIC_URL: 'https://assay.example.com' },
    ]) {
      const app = embeddedApp(config);
      assert.equal((await decode(app).expect(401)).body.error.code, 'unauthorized', JSON.stringify(config));
      await decode(app, operator.token).expect(200);
    }
    // Outside `assay start`'s embedded setup a loopback bind alone opens nothing.
    await decode(platform.app).expect(401);
  });

  it('is not served at all unless TEMPORAL_CODEC_ORIGINS is configured', async () => {
    await request(closed.app)
      .post('/codec/decode')
      .set('Origin', UI)
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ payloads: [] })
      .expect(404);
  });
});
