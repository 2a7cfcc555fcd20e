import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../domain/limits';
import { listAcross } from './paged-list';
import type { DownstreamExtra, DownstreamRelay } from './relay';
import { notFound } from './upstream-handlers';
import { offers, type ForwardUpstream } from './upstream';

/**
 * Resources keep their upstream URIs (clients and links in content stay valid); a read or subscription goes to the
 * upstream that listed the URI in this session, else whose template matches it, else the only upstream with resources.
 */
export class ResourceRoutes {
  private readonly byUri = new Map<string, ForwardUpstream>();
  private readonly templates = new Map<ForwardUpstream, UriTemplate[]>();

  constructor(
    private readonly upstreams: ForwardUpstream[],
    private readonly relay: DownstreamRelay,
  ) {}

  remember(upstream: ForwardUpstream, uris: string[]): void {
    for (const uri of uris) {
      this.byUri.delete(uri);
      this.byUri.set(uri, upstream);
      if (this.byUri.size > LIMITS.gatewayResourceRoutes) this.byUri.delete(this.byUri.keys().next().value as string);
    }
  }

  learnTemplates(upstream: ForwardUpstream, templates: string[]): void {
    this.templates.set(
      upstream,
      templates.slice(0, LIMITS.gatewayResourceRoutes).map((t) => new UriTemplate(t)),
    );
  }

  async route(uri: string, extra: DownstreamExtra): Promise<ForwardUpstream> {
    const known = this.byUri.get(uri);
    if (known) return known;
    if (this.upstreams.length === 1) return this.upstreams[0];
    for (const upstream of this.upstreams) {
      if (!this.templates.has(upstream)) {
        const listed = await this.relay.during(upstream, extra, (options) =>
          upstream.client.listResourceTemplates(undefined, options),
        );
        this.learnTemplates(
          upstream,
          listed.resourceTemplates.map((t) => t.uriTemplate),
        );
      }
      if (this.templates.get(upstream)?.some((template) => template.match(uri) !== null)) return upstream;
    }
    throw notFound(`uri: no linked server of this agent lists the resource ${JSON.stringify(uri)}`);
  }
}

/** resources/list, resources/templates/list, resources/read, resources/subscribe and unsubscribe, forwarded. */
export function forwardResources(
  server: Server,
  all: ForwardUpstream[],
  relay: DownstreamRelay,
): ResourceRoutes | undefined {
  const upstreams = all.filter((upstream) => offers(upstream, 'resources'));
  if (upstreams.length === 0) return undefined;
  const routes = new ResourceRoutes(upstreams, relay);
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
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
    const { items, nextCursor } = await listAcross(upstreams, request.params?.cursor, async (upstream, cursor) => {
      const page = await relay.during(upstream, extra, (options) =>
        upstream.client.listResourceTemplates(cursor === undefined ? undefined : { cursor }, options),
      );
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
    return { resourceTemplates: items, nextCursor };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const upstream = await routes.route(request.params.uri, extra);
    return relay.during(upstream, extra, (options) => upstream.client.readResource(request.params, options));
  });
  if (!upstreams.some((upstream) => upstream.client.getServerCapabilities()?.resources?.subscribe)) return routes;
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const upstream = await routes.route(request.params.uri, extra);
    return relay.during(upstream, extra, (options) => upstream.client.subscribeResource(request.params, options));
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) => {
    const upstream = await routes.route(request.params.uri, extra);
    return relay.during(upstream, extra, (options) => upstream.client.unsubscribeResource(request.params, options));
  });
  return routes;
}
