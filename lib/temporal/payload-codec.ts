import crypto from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

const ENCODING = 'binary/encrypted';
const ALGORITHM = 'aes-256-gcm';

/** Encrypts every Temporal payload with AES-256-GCM and a fresh nonce, so history at rest holds no plain data. */
export class AesGcmPayloadCodec implements PayloadCodec {
  constructor(private readonly key: Buffer) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const nonce = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv(ALGORITHM, this.key, nonce);
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const sealed = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return { metadata: { [METADATA_ENCODING_KEY]: Buffer.from(ENCODING) }, data: sealed };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (Buffer.from(payload.metadata?.[METADATA_ENCODING_KEY] ?? []).toString() !== ENCODING) return payload;
      const sealed = Buffer.from(payload.data ?? []);
      const decipher = crypto.createDecipheriv(ALGORITHM, this.key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      const plain = Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
      return temporal.api.common.v1.Payload.decode(plain);
    });
  }
}
