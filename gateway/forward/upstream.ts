import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';

/** An enabled link of the agent as the gateway session reads it from the catalog. */
export interface LinkedServer {
  serverId: string;
  serverName: string;
  /** What the exposed tool and prompt names start with: the link's `tool_prefix`, else `<server name>__`. */
  prefix: string;
  /** Changes when the server's config or secret is replaced: an upstream session opened before is closed. */
  version: string;
  /** A curated stdio server (a pooled child, started on first use). */
  pooled: boolean;
}

/** One linked server of a gateway session, as the forwarding handlers see it: its name, exposed prefix and client. */
export interface ForwardUpstream extends Pick<LinkedServer, 'serverId' | 'serverName' | 'prefix'> {
  client: Client;
  /** The server's secret values: nothing relayed from it to the client may contain them (`relayable`). */
  secretValues: readonly string[];
  /** A client other gateway sessions use too (a pooled stdio child): nothing it sends on its own is relayed. */
  shared?: boolean;
}

/** Where a relayed message comes from: its server, and the secret values to replace in it. */
export type RelaySource = Pick<ForwardUpstream, 'serverId' | 'serverName' | 'secretValues'>;

/** The upstreams of the agent's links as they are now (each opened on first use): what every request is routed among. */
export type CurrentUpstreams = () => Promise<ForwardUpstream[]>;

type Feature = 'resources' | 'prompts' | 'completions' | 'logging';

/** Whether the upstream advertised `feature` in its initialize answer. */
const offers = (upstream: ForwardUpstream, feature: Feature): boolean =>
  Boolean(upstream.client.getServerCapabilities()?.[feature]);

/** Those of `upstreams` that advertised `feature`. */
export const offeringOf = (upstreams: ForwardUpstream[], feature: Feature): ForwardUpstream[] =>
  upstreams.filter((upstream) => offers(upstream, feature));

/** The current upstreams that advertised `feature`. */
export const offering = async (current: CurrentUpstreams, feature: Feature): Promise<ForwardUpstream[]> =>
  offeringOf(await current(), feature);

/** The capabilities the gateway advertises besides tools: the union of the upstreams'. */
export function unionCapabilities(upstreams: ForwardUpstream[]): ServerCapabilities {
  const caps = upstreams.map((upstream) => upstream.client.getServerCapabilities() ?? {});
  const union: ServerCapabilities = {};
  if (caps.some((c) => c.resources))
    union.resources = {
      subscribe: caps.some((c) => c.resources?.subscribe) || undefined,
      listChanged: caps.some((c) => c.resources?.listChanged) || undefined,
    };
  if (caps.some((c) => c.prompts))
    union.prompts = { listChanged: caps.some((c) => c.prompts?.listChanged) || undefined };
  if (caps.some((c) => c.completions)) union.completions = {};
  if (caps.some((c) => c.logging)) union.logging = {};
  return union;
}

/**
 * The upstream whose prefix starts an exposed name, and the upstream's own name: the longest matching prefix wins,
 * so an empty prefix (allowed where names do not collide) only takes what no other link's prefix claims.
 */
export function routeName(
  upstreams: ForwardUpstream[],
  exposed: string,
): { upstream: ForwardUpstream; name: string } | undefined {
  const candidates = upstreams
    .filter((upstream) => exposed.startsWith(upstream.prefix) && exposed.length > upstream.prefix.length)
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const upstream = candidates[0];
  return upstream && { upstream, name: exposed.slice(upstream.prefix.length) };
}
