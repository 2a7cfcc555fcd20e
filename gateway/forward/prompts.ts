import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { listAcross } from './paged-list';
import type { DownstreamRelay } from './relay';
import type { ResourceRoutes } from './resources';
import { notFound } from './upstream-handlers';
import { offering, offeringOf, routeName, type CurrentUpstreams, type ForwardUpstream } from './upstream';

/** A prompt's exposed name: the link's prefix (as for its tools) and the upstream name. */
function routePrompt(upstreams: ForwardUpstream[], exposed: string) {
  const route = routeName(upstreams, exposed);
  if (!route) throw notFound(`name: no linked server of this agent offers the prompt ${JSON.stringify(exposed)}`);
  return route;
}

/** prompts/list and prompts/get, forwarded; prompt names carry the link's prefix like its tools. */
export function forwardPrompts(server: Server, current: CurrentUpstreams, relay: DownstreamRelay): void {
  server.setRequestHandler(ListPromptsRequestSchema, async (request, extra) => {
    const upstreams = await offering(current, 'prompts');
    const { items, nextCursor } = await listAcross(upstreams, request.params?.cursor, async (upstream, cursor) => {
      const page = await relay.during(upstream, extra, (options) =>
        upstream.client.listPrompts(cursor === undefined ? undefined : { cursor }, options),
      );
      return {
        items: page.prompts.map((p) => ({ ...p, name: upstream.prefix + p.name })),
        nextCursor: page.nextCursor,
      };
    });
    return { prompts: items, nextCursor };
  });
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const { upstream, name } = routePrompt(await offering(current, 'prompts'), request.params.name);
    return relay.during(upstream, extra, (options) => upstream.client.getPrompt({ ...request.params, name }, options));
  });
}

/** completion/complete, forwarded: a prompt reference is routed by its exposed name, a resource one by its URI. */
export function forwardCompletions(
  server: Server,
  current: CurrentUpstreams,
  relay: DownstreamRelay,
  resources: ResourceRoutes | undefined,
): void {
  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const { ref } = request.params;
    const all = await current();
    const upstreams = offeringOf(all, 'completions');
    const route =
      ref.type === 'ref/prompt'
        ? routePrompt(upstreams, ref.name)
        : {
            upstream:
              upstreams.length === 1
                ? upstreams[0]
                : await resources?.route(ref.uri, offeringOf(all, 'resources'), extra),
            name: undefined,
          };
    const upstream = route.upstream;
    if (!upstream || !upstreams.some((offered) => offered.serverId === upstream.serverId))
      throw notFound(`ref: no linked server of this agent offers completions for ${JSON.stringify(ref)}`);
    const params = route.name === undefined ? request.params : { ...request.params, ref: { ...ref, name: route.name } };
    return relay.during(upstream, extra, (options) => upstream.client.complete(params, options));
  });
}
