import assert from 'node:assert/strict';
import { defaultPayloadConverter } from '@temporalio/common';
import request from 'supertest';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';

const UI = 'http://127.0.0.1:8233';
const b64 = (bytes: Uint8Array | null | undefined): string => Buffer.from(bytes ?? []).toString('base64');

describe('remote codec for the Temporal Web UI', () => {
  let platform: TestPlatform;
  let closed: TestPlatform;

  before(async () => {
    const h = await harness();
    platform = await createTestPlatform(h, { env: { TEMPORAL_CODEC_ORIGINS: UI } });
    closed = await createTestPlatform(h);
  });
  after(async () => {
    await platform?.close();
    await closed?.close();
  });

  it('decodes encrypted payloads for the allowed UI origin, and encodes them back', async () => {
    const codec = platform.runtime.dataConverter.payloadCodecs?.[0];
    assert.ok(codec);
    const [sealed] = await codec.encode([defaultPayloadConverter.toPayload({ message: 'readable in the UI' })]);
    const wire = {
      payloads: [
        {
          metadata: Object.fromEntries(Object.entries(sealed.metadata ?? {}).map(([k, v]) => [k, b64(v)])),
          data: b64(sealed.data),
        },
      ],
    };
    assert.doesNotMatch(Buffer.from(wire.payloads[0].data, 'base64').toString('latin1'), /readable in the UI/);

    const decoded = await request(platform.app)
      .post('/codec/decode')
      .set('Origin', UI)
      .set('X-Namespace', 'default')
      .send(wire)
      .expect(200);
    assert.equal(decoded.headers['access-control-allow-origin'], UI);
    const plain = decoded.body.payloads[0];
    assert.equal(Buffer.from(plain.metadata.encoding, 'base64').toString(), 'json/plain');
    assert.deepEqual(JSON.parse(Buffer.from(plain.data, 'base64').toString()), { message: 'readable in the UI' });

    const encoded = await request(platform.app)
      .post('/codec/encode')
      .set('Origin', UI)
      .send({ payloads: [plain] })
      .expect(200);
    assert.equal(Buffer.from(encoded.body.payloads[0].metadata.encoding, 'base64').toString(), 'binary/encrypted');
  });

  it('answers the browser preflight with CORS headers for the UI origin only', async () => {
    const ok = await request(platform.app).options('/codec/decode').set('Origin', UI).expect(204);
    assert.match(String(ok.headers['access-control-allow-headers']), /X-Namespace/);
    await request(platform.app).options('/codec/decode').set('Origin', 'http://evil.test').expect(403);
  });

  it('refuses other origins and requests without one, and tampered payloads', async () => {
    const body = {
      payloads: [{ metadata: { encoding: b64(Buffer.from('binary/encrypted')) }, data: b64(Buffer.alloc(40, 1)) }],
    };
    await request(platform.app).post('/codec/decode').send(body).expect(403);
    await request(platform.app).post('/codec/decode').set('Origin', 'http://evil.test').send(body).expect(403);
    const tampered = await request(platform.app).post('/codec/decode').set('Origin', UI).send(body).expect(422);
    assert.equal(tampered.body.error.code, 'codec_failed');
  });

  it('is not served at all unless TEMPORAL_CODEC_ORIGINS is configured', async () => {
    await request(closed.app).post('/codec/decode').set('Origin', UI).send({ payloads: [] }).expect(404);
  });
});
