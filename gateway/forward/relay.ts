import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { gatewayNotificationsDropped } from '../../lib/metrics';
import { MCP_HTTP_TIMEOUT_MS } from '../../lib/outbound/mcp/mcp-session';
import { NotificationPacer, type ListKind } from './notification-pacer';
import { OversizeMessage, relayable, relayableError, type Relayed } from './relayable';
import type { RelaySource } from './upstream';

/** What the SDK hands a downstream request handler that forwarding needs (a subset of its `RequestHandlerExtra`). */
export interface DownstreamExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification(notification: ServerNotification): Promise<void>;
  sendRequest<U extends AnySchema>(request: ServerRequest, schema: U): Promise<SchemaOutput<U>>;
}

/**
 * The one way anything of an upstream reaches the downstream client: answers and failures of forwarded requests,
 * and what an upstream sends on its own (logging, progress and resource notifications, sampling and elicitation
 * requests), each scrubbed of the server's secret values and bounded by `gatewayResultBytes` (`relayable`). What an
 * upstream sends on its own goes on the stream of the downstream request currently forwarded to it (so a client
 * without a standalone GET stream still sees it), else on the session's standalone stream. List changes and resource
 * updates are paced (`NotificationPacer`), so an upstream's storm of them costs the session a bounded number of sends.
 */
export class DownstreamRelay {
  private readonly inFlight = new Map<string, DownstreamExtra[]>();
  private readonly pacer: NotificationPacer;

  constructor(readonly server: Server) {
    const send = (kind: ListKind): Promise<void> =>
      kind === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
    this.pacer = new NotificationPacer((kind) => void send(kind).catch(() => undefined));
  }

  /**
   * Runs `forward` as the downstream request `extra` sent to `source` (the options carry cancel and progress);
   * answers its result as the client may get it, and its size. A failure is rethrown as `relayableError`.
   */
  async forward<T>(
    source: RelaySource,
    extra: DownstreamExtra,
    forward: (options: RequestOptions) => Promise<T>,
  ): Promise<Relayed<T>> {
    const list = this.inFlight.get(source.serverId) ?? [];
    list.push(extra);
    this.inFlight.set(source.serverId, list);
    try {
      return relayable(source, await forward(this.options(source, extra)), 'an answer');
    } catch (error) {
      throw error instanceof OversizeMessage ? error : relayableError(source, error);
    } finally {
      list.splice(list.indexOf(extra), 1);
      if (list.length === 0) this.inFlight.delete(source.serverId);
    }
  }

  /** `forward`, answering the result only. */
  async during<T>(
    source: RelaySource,
    extra: DownstreamExtra,
    forward: (options: RequestOptions) => Promise<T>,
  ): Promise<T> {
    return (await this.forward(source, extra, forward)).value;
  }

  /** Sends a notification from `source` to the client: related to its request in flight, else on the session's stream. */
  notify(source: RelaySource, notification: ServerNotification, on: 'request' | 'session' = 'request'): Promise<void> {
    return this.send(source, notification, on === 'request' ? this.current(source) : undefined);
  }

  /** An upstream's list of `kind` changed: the client is told on the session's stream, at most once per interval. */
  listChanged(kind: ListKind): void {
    this.pacer.listChanged(kind);
  }

  /** Sends a resources/updated from `source` on the session's stream, within the session's budget; else counts it. */
  async updated(source: RelaySource, notification: ServerNotification): Promise<void> {
    if (this.pacer.admitsUpdate()) return this.notify(source, notification, 'session');
    gatewayNotificationsDropped.inc({ server: source.serverName, method: notification.method });
  }

  /** The session closed: nothing paced is sent any more. */
  close(): void {
    this.pacer.close();
  }

  /** Sends a request from `source` to the client and answers the client's result (one over the bound: refused). */
  async request<U extends AnySchema>(
    source: RelaySource,
    request: ServerRequest,
    schema: U,
    signal: AbortSignal,
  ): Promise<SchemaOutput<U>> {
    const relayed = relayable(source, request, request.method).value;
    const extra = this.current(source);
    if (extra) return extra.sendRequest(relayed, schema);
    return this.server.request(relayed, schema, { signal });
  }

  // A notification over the bound is dropped: there is no one to refuse it to.
  private async send(source: RelaySource, notification: ServerNotification, extra?: DownstreamExtra): Promise<void> {
    let relayed: ServerNotification;
    try {
      relayed = relayable(source, notification, notification.method).value;
    } catch (error) {
      if (error instanceof OversizeMessage) return;
      throw error;
    }
    await (extra ? extra.sendNotification(relayed) : this.server.notification(relayed));
  }

  private current(source: RelaySource): DownstreamExtra | undefined {
    const list = this.inFlight.get(source.serverId);
    return list?.[list.length - 1];
  }

  /**
   * The options of one forwarded request: cancelled with the downstream request, and when the client asked for
   * progress, the upstream's progress is sent back under the client's own token (the timeout restarts on each).
   */
  private options(source: RelaySource, extra: DownstreamExtra): RequestOptions {
    const token = extra._meta?.progressToken;
    if (token === undefined) return { signal: extra.signal, timeout: MCP_HTTP_TIMEOUT_MS };
    return {
      signal: extra.signal,
      timeout: MCP_HTTP_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      onprogress: (progress) =>
        void this.send(
          source,
          { method: 'notifications/progress', params: { ...progress, progressToken: token } },
          extra,
        ).catch(() => undefined),
    };
  }
}
