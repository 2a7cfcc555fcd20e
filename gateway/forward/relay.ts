import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { MCP_HTTP_TIMEOUT_MS } from '../../lib/outbound/mcp/mcp-session';
import type { ForwardUpstream } from './upstream';

/** What the SDK hands a downstream request handler that forwarding needs (a subset of its `RequestHandlerExtra`). */
export interface DownstreamExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification(notification: ServerNotification): Promise<void>;
  sendRequest<U extends AnySchema>(request: ServerRequest, schema: U): Promise<SchemaOutput<U>>;
}

/**
 * Routes what an upstream sends on its own (logging and progress notifications, sampling and elicitation requests)
 * to the downstream client: on the stream of the downstream request currently forwarded to that upstream (so a
 * client without a standalone GET stream still sees them), else on the session's standalone stream.
 */
export class DownstreamRelay {
  private readonly inFlight = new Map<string, DownstreamExtra[]>();

  constructor(readonly server: Server) {}

  /** Runs `forward` as the downstream request `extra` sent to server `serverId`; the options carry cancel and progress. */
  async during<T>(
    serverId: string,
    extra: DownstreamExtra,
    forward: (options: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const list = this.inFlight.get(serverId) ?? [];
    list.push(extra);
    this.inFlight.set(serverId, list);
    try {
      return await forward(forwardOptions(extra));
    } finally {
      list.splice(list.indexOf(extra), 1);
      if (list.length === 0) this.inFlight.delete(serverId);
    }
  }

  /** Sends a notification from `upstream` to the client. */
  async notify(upstream: ForwardUpstream, notification: ServerNotification): Promise<void> {
    const extra = this.current(upstream);
    await (extra ? extra.sendNotification(notification) : this.server.notification(notification));
  }

  /** Sends a request from `upstream` to the client and answers the client's result. */
  async request<U extends AnySchema>(
    upstream: ForwardUpstream,
    request: ServerRequest,
    schema: U,
    signal: AbortSignal,
  ): Promise<SchemaOutput<U>> {
    const extra = this.current(upstream);
    if (extra) return extra.sendRequest(request, schema);
    return this.server.request(request, schema, { signal });
  }

  private current(upstream: ForwardUpstream): DownstreamExtra | undefined {
    const list = this.inFlight.get(upstream.serverId);
    return list?.[list.length - 1];
  }
}

/**
 * The options of one forwarded request: cancelled with the downstream request, and when the client asked for
 * progress, the upstream's progress is sent back under the client's own token (the timeout restarts on each).
 */
export function forwardOptions(extra: DownstreamExtra): RequestOptions {
  const token = extra._meta?.progressToken;
  if (token === undefined) return { signal: extra.signal, timeout: MCP_HTTP_TIMEOUT_MS };
  return {
    signal: extra.signal,
    timeout: MCP_HTTP_TIMEOUT_MS,
    resetTimeoutOnProgress: true,
    onprogress: (progress) =>
      void extra
        .sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken: token } })
        .catch(() => undefined),
  };
}
