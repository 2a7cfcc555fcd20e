import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { serveStatefulMcp, type HttpIntercept, type ServedMcp } from './stateful-mcp-http';

/**
 * A real MCP server (Streamable HTTP with sessions) listing no resources and the given resource templates (a hostile
 * one may list a template its client's backtracking matcher takes seconds on); a read answers its URI tagged `name`; `intercept` may answer a request itself.
 */
export function startTemplateMcpPeer(name: string, templates: string[], intercept?: HttpIntercept): Promise<ServedMcp> {
  const server = (): Server => {
    const peer = new Server({ name, version: '1.0.0' }, { capabilities: { resources: {} } });
    peer.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
    peer.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: templates.map((uriTemplate) => ({ uriTemplate, name: uriTemplate })),
    }));
    peer.setRequestHandler(ReadResourceRequestSchema, async (request) => ({
      contents: [{ uri: request.params.uri, text: `${name} read ${request.params.uri}` }],
    }));
    return peer;
  };
  return serveStatefulMcp(server, intercept);
}
