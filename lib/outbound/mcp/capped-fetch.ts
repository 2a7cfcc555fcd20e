import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { limitMessage } from '../../../domain/limit-checks';
import { LIMITS } from '../../../domain/limits';
import { capBody, declaredOver } from '../egress/capped-body';
import { McpProtocolError } from './list-tools';

/** A server's response body passed the byte limit; reading stopped there. */
export class McpResponseTooLargeError extends McpProtocolError {
  constructor(bytes: number | string) {
    super(`the server sent a response of ${bytes} bytes: ${limitMessage('mcpResponseBytes', 'bytes')}`);
    this.name = 'McpResponseTooLargeError';
  }
}

/** A fetch whose responses stop at `maxBytes` and the first overflow it met, so a session can report it. */
export interface CappedFetch {
  fetch: FetchLike;
  overflow(): McpResponseTooLargeError | undefined;
}

/**
 * Wraps a fetch so no response body is read past `maxBytes` (see `capBody`): a declared length over it is refused
 * before reading, and a body that streams past it is cut with {@link McpResponseTooLargeError}. `onOverflow` lets the
 * session end at once: an SSE answer cut short would otherwise leave its request waiting for its timeout.
 */
export function cappedFetch(
  inner: FetchLike,
  options: { maxBytes?: number; onOverflow?: () => void } = {},
): CappedFetch {
  const maxBytes = options.maxBytes ?? LIMITS.mcpResponseBytes;
  let overflow: McpResponseTooLargeError | undefined;
  const refuse = (bytes: number | string): McpResponseTooLargeError => {
    if (!overflow) {
      overflow = new McpResponseTooLargeError(bytes);
      options.onOverflow?.();
    }
    return overflow;
  };
  const fetch: FetchLike = async (url, init) => {
    const response = await inner(url, init);
    const declared = declaredOver(response, maxBytes);
    if (declared !== undefined) {
      await response.body?.cancel().catch(() => undefined);
      throw refuse(declared);
    }
    return capBody(response, maxBytes, refuse);
  };
  return { fetch, overflow: () => overflow };
}
