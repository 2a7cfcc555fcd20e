import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { forwardLogging } from './logging';
import { forwardCompletions, forwardPrompts } from './prompts';
import { DownstreamRelay } from './relay';
import { forwardResources } from './resources';
import type { CurrentUpstreams } from './upstream';

export type { DownstreamExtra } from './relay';
export { unionCapabilities, type CurrentUpstreams, type ForwardUpstream, type LinkedServer } from './upstream';
export { relayFromUpstream, upstreamClientCapabilities } from './upstream-handlers';

/**
 * Everything the gateway forwards besides tools, installed on one downstream session's `server` (created with
 * `capabilities` beside its tools capability): resources, templates, subscriptions, prompts, completions, logging
 * level. Each request is routed among `current()`, the upstreams of the agent's links as they are now. The answer's
 * `during` wraps the tools/call forwarding so progress, cancellation and the upstream's requests of that call travel
 * on the call's own stream; `relayFromUpstream` (with what each upstream was `declared`) passes on what an upstream
 * sends on its own.
 */
export function installForwarding(
  server: Server,
  capabilities: ServerCapabilities,
  current: CurrentUpstreams,
): DownstreamRelay {
  const relay = new DownstreamRelay(server);
  const resources = capabilities.resources
    ? forwardResources(server, current, relay, capabilities.resources)
    : undefined;
  if (capabilities.prompts) forwardPrompts(server, current, relay);
  if (capabilities.completions) forwardCompletions(server, current, relay, resources);
  if (capabilities.logging) forwardLogging(server, current, relay);
  return relay;
}
