import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { limitMessage } from '../../domain/limit-checks';
import { LIMITS } from '../../domain/limits';
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
 * Wraps a fetch so no response body is read past `maxBytes`: a declared length over it is refused before reading,
 * and a body that streams past it is cut (the socket is cancelled) with {@link McpResponseTooLargeError}. The SDK
 * buffers a JSON response whole, so without this one answer could take the worker's heap. `onOverflow` lets the
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
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw refuse(declared);
    }
    if (!response.body) return response;
    let seen = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(refuse(`more than ${maxBytes}`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch, overflow: () => overflow };
}
