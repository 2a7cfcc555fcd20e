import {
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { DownstreamRelay } from './relay';
import type { ForwardUpstream } from './upstream';

/**
 * The capabilities the gateway declares to an upstream: the downstream client's sampling and elicitation (what it
 * can answer when an upstream asks); nothing it cannot forward.
 */
export function upstreamClientCapabilities(downstream: ClientCapabilities | undefined): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (downstream?.sampling) caps.sampling = downstream.sampling;
  if (downstream?.elicitation) caps.elicitation = downstream.elicitation;
  return caps;
}

/**
 * Installs on an upstream client the handlers that pass its server's requests and notifications downstream;
 * `declared` is what the client was created with (`upstreamClientCapabilities`). List changes and resource updates are
 * paced by the relay; an upstream's tools/list_changed has no handler (the client ignores it): the gateway's tools are
 * the agent's synced catalog, whose changes the gateway announces itself.
 */
export function relayFromUpstream(
  upstream: ForwardUpstream,
  relay: DownstreamRelay,
  declared: ClientCapabilities,
): void {
  const { client } = upstream;
  if (declared.sampling)
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      relay.request(upstream, request, CreateMessageResultSchema, extra.signal),
    );
  if (declared.elicitation)
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      relay.request(upstream, request, ElicitResultSchema, extra.signal),
    );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
    relay.notify(upstream, notification),
  );
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
    relay.updated(upstream, notification),
  );
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => relay.listChanged('resources'));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => relay.listChanged('prompts'));
}

/** The error a forwarded request answers when no linked server offers the feature or knows the name. */
export const notFound = (what: string): McpError => new McpError(ErrorCode.InvalidParams, what);
