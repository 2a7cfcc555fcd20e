import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DownstreamRelay } from './relay';
import { offers, type ForwardUpstream } from './upstream';

/**
 * logging/setLevel, forwarded to every upstream that logs (each filters its own messages; the gateway passes
 * `notifications/message` on unfiltered, see `relayFromUpstream`). Replaces the SDK's own per-session level handler.
 */
export function forwardLogging(server: Server, all: ForwardUpstream[], relay: DownstreamRelay): void {
  const upstreams = all.filter((upstream) => offers(upstream, 'logging'));
  if (upstreams.length === 0) return;
  server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
    await Promise.all(
      upstreams.map((upstream) =>
        relay.during(upstream, extra, (options) => upstream.client.setLoggingLevel(request.params.level, options)),
      ),
    );
    return {};
  });
}
