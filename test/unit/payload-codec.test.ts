import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { defaultPayloadConverter, METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import { AesGcmPayloadCodec } from '../../lib/temporal/payload-codec';

const encoding = (payload: Payload): string => Buffer.from(payload.metadata?.[METADATA_ENCODING_KEY] ?? []).toString();

describe('AES-GCM payload codec', () => {
  const key = crypto.randomBytes(32);
  const codec = new AesGcmPayloadCodec(key);
  const message = `secret-${crypto.randomBytes(8).toString('hex')}`;
  const plain = defaultPayloadConverter.toPayload({ message, unicode: 'clé 🔑' });

  it('decodes what it encoded to the identical payload, metadata included', async () => {
    const [encoded] = await codec.encode([plain]);
    const [decoded] = await codec.decode([encoded]);
    assert.equal(encoding(decoded), 'json/plain');
    assert.deepEqual(Buffer.from(decoded.data ?? []), Buffer.from(plain.data ?? []));
    assert.deepEqual(defaultPayloadConverter.fromPayload(decoded), { message, unicode: 'clé 🔑' });
  });

  it('marks encoded payloads binary/encrypted and hides both data and original metadata', async () => {
    const [encoded] = await codec.encode([plain]);
    assert.equal(encoding(encoded), 'binary/encrypted');
    assert.deepEqual(Object.keys(encoded.metadata ?? {}), [METADATA_ENCODING_KEY]);
    const bytes = Buffer.from(encoded.data ?? []);
    assert.equal(bytes.includes(Buffer.from(message)), false);
    assert.equal(bytes.includes(Buffer.from('json/plain')), false);
  });

  it('produces a different ciphertext each time the same payload is encoded', async () => {
    const [a, b] = await codec.encode([plain, plain]);
    assert.notDeepEqual(Buffer.from(a.data ?? []), Buffer.from(b.data ?? []));
    assert.notDeepEqual(Buffer.from(a.data ?? []).subarray(0, 12), Buffer.from(b.data ?? []).subarray(0, 12));
  });

  it('encodes and decodes a batch in order, including an empty payload', async () => {
    const batch = [
      defaultPayloadConverter.toPayload(1),
      defaultPayloadConverter.toPayload(undefined),
      defaultPayloadConverter.toPayload('three'),
    ];
    const decoded = await codec.decode(await codec.encode(batch));
    assert.deepEqual(
      decoded.map((p) => defaultPayloadConverter.fromPayload(p)),
      [1, undefined, 'three'],
    );
  });

  it('passes through payloads it did not encode', async () => {
    const [decoded] = await codec.decode([plain]);
    assert.equal(decoded, plain);
  });

  it('refuses a payload whose ciphertext, nonce or tag was altered', async () => {
    const [encoded] = await codec.encode([plain]);
    const data = Buffer.from(encoded.data ?? []);
    for (const index of [0, 12, data.length - 1]) {
      const tampered = Buffer.from(data);
      tampered[index] ^= 0x01;
      await assert.rejects(codec.decode([{ ...encoded, data: tampered }]), `flipping byte ${index}`);
    }
    await assert.rejects(codec.decode([{ ...encoded, data: data.subarray(0, 20) }]));
  });

  it('refuses a payload encrypted under another key', async () => {
    const [encoded] = await new AesGcmPayloadCodec(crypto.randomBytes(32)).encode([plain]);
    await assert.rejects(codec.decode([encoded]));
  });
});
