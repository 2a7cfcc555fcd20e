import type { DataConverter } from '@temporalio/common';
import { AesGcmPayloadCodec } from './payload-codec';

/** The one data converter of client and worker: encrypted payloads and encoded failure attributes. */
export function createDataConverter(payloadKey: Buffer): DataConverter {
  return {
    payloadCodecs: [new AesGcmPayloadCodec(payloadKey)],
    failureConverterPath: require.resolve('./failure-converter'),
  };
}
