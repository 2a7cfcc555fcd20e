import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../domain/limits';
import { ResourceTemplates } from '../../domain/mcp/resource-templates';
import { listAcross } from './paged-list';
import type { DownstreamExtra, DownstreamRelay } from './relay';
import { notFound } from './upstream-handlers';
import { offering, type CurrentUpstreams, type ForwardUpstream } from './upstream';

/**
 * Resources keep their upstream URIs (clients and links in content stay valid); a read or subscription goes to the
 * current upstream of the server that listed the URI in this session, else whose template matches it, else the only
 * upstream with resources.
 */
export class ResourceRoutes {
  /** URI → id of the server that listed it. */
  private readonly byUri = new Map<string, string>();
  /** Per upstream session (a reopened one lists its templates again). */
  private readonly templates = new WeakMap<Client, ResourceTemplates>();

  constructor(private readonly relay: DownstreamRelay) {}

  remember(upstream: ForwardUpstream, uris: string[]): void {
    for (const uri of uris) {
      this.byUri.delete(uri);
      this.byUri.set(uri, upstream.serverId);
      if (this.byUri.size > LIMITS.gatewayResourceRoutes) this.byUri.delete(this.byUri.keys().next().value as string);
    }
  }

  learnTemplates(upstream: ForwardUpstream, templates: string[]): void {
    this.templates.set(upstream.client, new ResourceTemplates(templates));
  }

  /** The upstream among `upstreams` (the current ones with resources) that a request for `uri` goes to. */
  async route(uri: string, upstreams: ForwardUpstream[], extra: DownstreamExtra): Promise<ForwardUpstream> {
    const lister = this.byUri.get(uri);
    if (lister !== undefined) {
      // Listed by a server no longer linked: never sent to another one.
      const known = upstreams.find((upstream) => upstream.serverId === lister);
      if (known) return known;
      throw notFound(
        `uri: the server that listed the resource ${JSON.stringify(uri)} is not linked or not reachable now`,
      );
    }
    if (upstreams.length === 1) return upstreams[0];
    if (uri.length > LIMITS.resourceUriChars)
      throw notFound(
        `uri: over ${LIMITS.resourceUriChars} characters (limit resourceUriChars), matched by no template`,
      );
    for (const upstream of upstreams) {
      if (!this.templates.has(upstream.client)) {
        const listed = await this.relay.during(upstream, extra, (options) =>
          upstream.client.listResourceTemplates(undefined, options),
        );
        this.learnTemplates(
          upstream,
          listed.resourceTemplates.map((t) => t.uriTemplate),
        );
      }
      if (this.templates.get(upstream.client)?.matches(uri)) return upstream;
    }
    throw notFound(`uri: no linked server of this agent lists the resource ${JSON.stringify(uri)}`);
  }
}

/** resources/list, resources/templates/list, resources/read, resources/subscribe and unsubscribe, forwarded. */
export function forwardResources(
  server: Server,
  current: CurrentUpstreams,
  relay: DownstreamRelay,
  advertised: NonNullable<ServerCapabilities['resources']>,
): ResourceRoutes {
  const routes = new ResourceRoutes(relay);
  const route = async (uri: string, extra: DownstreamExtra): Promise<ForwardUpstream> =>
    routes.route(uri, await offering(current, 'resources'), extra);
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const upstreams = await offering(current, 'resources');
    const { items, nextCursor } = await listAcross(upstreams, request.params?.cursor, async (upstream, cursor) => {
      const page = await relay.during(upstream, extra, (options) =>
        upstream.client.listResources(cursor === undefined ? undefined : { cursor }, options),
      );
      routes.remember(
        upstream,
        page.resources.map((r) => r.uri),
      );
      return { items: page.resources, nextCursor: page.nextCursor };
    });
    return { resources: items, nextCursor };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request, extra) => {
    const upstreams = await offering(current, 'resources');
    const { items, nextCursor } = await listAcross(upstreams, request.params?.cursor, async (upstream, cursor) => {
      const page = await relay.during(upstream, extra, (options) =>
        upstream.client.listResourceTemplates(cursor === undefined ? undefined : { cursor }, options),
      );
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
    return { resourceTemplates: items, nextCursor };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const upstream = await route(request.params.uri, extra);
    return relay.during(upstream, extra, (options) => upstream.client.readResource(request.params, options));
  });
  if (!advertised.subscribe) return routes;
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const upstream = await route(request.params.uri, extra);
    return relay.during(upstream, extra, (options) => upstream.client.subscribeResource(request.params, options));
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) => {
    const upstream = await route(request.params.uri, extra);
    return relay.during(upstream, extra, (options) => upstream.client.unsubscribeResource(request.params, options));
  });
  return routes;
}
