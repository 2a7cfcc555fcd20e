import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { forwardLogging } from './logging';
import { forwardCompletions, forwardPrompts } from './prompts';
import { DownstreamRelay } from './relay';
import { forwardResources } from './resources';
import { relayFromUpstream } from './upstream-handlers';
import type { ForwardUpstream } from './upstream';

export type { DownstreamExtra } from './relay';
export { unionCapabilities, type ForwardUpstream } from './upstream';
export { upstreamClientCapabilities } from './upstream-handlers';

/**
 * Everything the gateway forwards besides tools, installed on one downstream session's `server` (created with
 * `unionCapabilities(upstreams)` beside its tools capability): resources, templates, subscriptions, prompts,
 * completions, logging level; and from each upstream (its client created with `upstreamClientCapabilities`, passed
 * as `declared`): logging, resource and list-changed notifications, sampling and elicitation requests. The answer's
 * `during` wraps the tools/call forwarding so progress, cancellation and the upstream's requests of that call
 * travel on the call's own stream.
 */
export function installForwarding(
  server: Server,
  upstreams: ForwardUpstream[],
  declared: ClientCapabilities,
): DownstreamRelay {
  const relay = new DownstreamRelay(server);
  for (const upstream of upstreams) if (!upstream.shared) relayFromUpstream(upstream, relay, declared);
  const resources = forwardResources(server, upstreams, relay);
  forwardPrompts(server, upstreams, relay);
  forwardCompletions(server, upstreams, relay, resources);
  forwardLogging(server, upstreams, relay);
  return relay;
}
