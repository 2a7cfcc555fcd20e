import crypto from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../domain/limits';
import { handleToolCall, type CallContext } from './call-handler';
import type { CallRecorder } from './call-recorder';
import { toolDefinition } from './tool-catalog';
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

/** Registers the session's tool handlers: the agent's allowed tools, paged, and calls forwarded to their servers. */
function registerTools(server: Server, ctx: CallContext): void {
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const allowed = [...(await ctx.catalog()).tools.values()].filter((t) => t.allowed);
    const start = Number(request.params?.cursor ?? 0);
    if (!Number.isSafeInteger(start) || start < 0 || start > allowed.length)
      throw new McpError(ErrorCode.InvalidParams, `invalid cursor ${String(request.params?.cursor)}`);
    const page = allowed.slice(start, start + PAGE);
    const next = start + PAGE < allowed.length ? { nextCursor: String(start + PAGE) } : {};
    return { tools: page.map(toolDefinition), ...next };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => handleToolCall(ctx, request, extra.signal));
}

/**
 * Opens a session for an `initialize` request: a stateful Streamable HTTP transport (the SDK generates the
 * `Mcp-Session-Id`) connected to a low-level SDK `Server` that advertises tools with `listChanged`.
 */
export async function openGatewaySession(
  ctx: Omit<CallContext, 'recorder' | 'owner'> & {
    owner: Omit<CallContext['owner'], 'mcpSessionId'>;
    recorder(mcpSessionId: string): CallRecorder;
    onClose(session: GatewaySession): void;
  },
): Promise<GatewaySession> {
  const id = crypto.randomUUID();
  const owner = { ...ctx.owner, mcpSessionId: id };
  const recorder = ctx.recorder(id);
  const server = new Server(GATEWAY_INFO, { capabilities: { tools: { listChanged: true } } });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
  let closed = false;
  const session: GatewaySession = {
    id,
    server,
    transport,
    owner,
    upstreams: ctx.upstreams,
    lastSeen: Date.now(),
    async close() {
      if (closed) return;
      closed = true;
      ctx.onClose(session);
      await server.close().catch(() => undefined);
      await ctx.upstreams.close();
      await recorder.close();
    },
  };
  registerTools(server, { ...ctx, owner, recorder });
  server.onclose = () => void session.close();
  await server.connect(transport);
  return session;
}
