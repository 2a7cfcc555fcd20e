import crypto from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ClientCapabilities,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../domain/limits';
import { handleToolCall, type CallContext } from './call-handler';
import { withoutMovedTools } from './live-definitions';
import {
  installForwarding,
  relayFromUpstream,
  unionCapabilities,
  type ForwardUpstream,
  type LinkedServer,
} from './forward/install';
import { openForwardUpstreams } from './forward/open-upstreams';
import type { CallRecorder } from './call-recorder';
import { toolDefinition, type AgentToolCatalog } from './tool-catalog';
import type { Upstreams } from './upstreams';

/** The gateway's name and version in `initialize`. */
export const GATEWAY_INFO = { name: 'assay-gateway', version: '0.1.0' };

/** One downstream MCP session: its server, transport, upstream sessions, recording and owner. */
export interface GatewaySession {
  id: string;
  server: Server;
  transport: StreamableHTTPServerTransport;
  owner: CallContext['owner'];
  upstreams: Upstreams;
  lastSeen: number;
  close(): Promise<void>;
}

const PAGE = LIMITS.pageMax;

/** What a curated stdio server is taken to offer before it starts (on first use): nothing it sends on its own is
 * relayed (it is shared), so no subscriptions, list changes or logging. */
const POOLED_CAPABILITIES: ServerCapabilities = { resources: {}, prompts: {}, completions: {} };

/** Registers the session's tool handlers: the agent's allowed tools, paged, and calls forwarded to their servers. */
function registerTools(server: Server, ctx: CallContext): void {
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const listed = [...(await ctx.catalog()).tools.values()].filter((t) => t.allowed);
    const allowed = await withoutMovedTools(listed, ctx.upstreams);
    const start = Number(request.params?.cursor ?? 0);
    if (!Number.isSafeInteger(start) || start < 0 || start > allowed.length)
      throw new McpError(ErrorCode.InvalidParams, `invalid cursor ${String(request.params?.cursor)}`);
    const page = allowed.slice(start, start + PAGE);
    const next = start + PAGE < allowed.length ? { nextCursor: String(start + PAGE) } : {};
    return { tools: page.map(toolDefinition), ...next };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => handleToolCall(ctx, request, extra));
}

/**
 * Opens a session for an `initialize` request: a stateful Streamable HTTP transport (the SDK generates the
 * `Mcp-Session-Id`) connected to a low-level SDK `Server` that advertises tools with `listChanged`.
 */
export async function openGatewaySession(
  ctx: Omit<CallContext, 'recorder' | 'owner' | 'relay'> & {
    owner: Omit<CallContext['owner'], 'mcpSessionId'>;
    /** What the upstreams were told the gateway can answer (`upstreamClientCapabilities` of the client's). */
    upstreamCapabilities: ClientCapabilities;
    recorder(mcpSessionId: string): CallRecorder;
    onClose(session: GatewaySession): void;
  },
): Promise<GatewaySession> {
  const id = crypto.randomUUID();
  const owner = { ...ctx.owner, mcpSessionId: id };
  const recorder = ctx.recorder(id);
  const { upstreams } = ctx;
  // Every request reads the agent's catalog through here: an upstream whose link went away or changed is closed.
  const catalog = async (): Promise<AgentToolCatalog> => {
    const current = await ctx.catalog();
    upstreams.retain(current.links);
    return current;
  };
  const open = (links: LinkedServer[]): Promise<ForwardUpstream[]> =>
    openForwardUpstreams(
      links,
      (serverId) => upstreams.get(serverId),
      (link, error) =>
        ctx.logger.warn({ server: link.serverName, error: (error as Error).name }, 'gateway upstream unavailable'),
    );
  // The HTTP servers' upstream sessions open now (their capabilities make the gateway's); a stdio server's child starts
  // on the session's first use of it.
  const { links } = await catalog();
  const opened = await open(links.filter((link) => !link.pooled));
  const pooled = links.some((link) => link.pooled) ? POOLED_CAPABILITIES : {};
  const capabilities = { tools: { listChanged: true }, ...pooled, ...unionCapabilities(opened) };
  const server = new Server(GATEWAY_INFO, { capabilities });
  const relay = installForwarding(server, capabilities, async () => open((await catalog()).links));
  const relayed = (upstream: ForwardUpstream): void => {
    if (!upstream.shared) relayFromUpstream(upstream, relay, ctx.upstreamCapabilities);
  };
  opened.forEach(relayed);
  upstreams.onOpen = relayed;
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
  let closed = false;
  const session: GatewaySession = {
    id,
    server,
    transport,
    owner,
    upstreams,
    lastSeen: Date.now(),
    async close() {
      if (closed) return;
      closed = true;
      ctx.onClose(session);
      relay.close();
      await server.close().catch(() => undefined);
      await upstreams.close();
      await recorder.close();
    },
  };
  registerTools(server, { ...ctx, catalog, owner, recorder, relay });
  server.onclose = () => void session.close();
  await server.connect(transport);
  return session;
}
