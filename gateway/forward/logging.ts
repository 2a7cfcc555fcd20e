import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DownstreamRelay } from './relay';
import { offering, type CurrentUpstreams } from './upstream';

/**
 * logging/setLevel, forwarded to every upstream that logs (each filters its own messages; the gateway passes
 * `notifications/message` on unfiltered, see `relayFromUpstream`). Replaces the SDK's own per-session level handler.
 */
export function forwardLogging(server: Server, current: CurrentUpstreams, relay: DownstreamRelay): void {
  server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
    const upstreams = await offering(current, 'logging');
    await Promise.all(
      upstreams.map((upstream) =>
        relay.during(upstream, extra, (options) => upstream.client.setLoggingLevel(request.params.level, options)),
      ),
    );
    return {};
  });
}
