import { DefaultFailureConverter } from '@temporalio/common';

// Loaded inside the workflow sandbox through failureConverterPath: messages and stacks go into the encoded
// attributes, so the payload codec encrypts them like any other payload.
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
