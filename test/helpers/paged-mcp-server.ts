import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool as this test server lists it. */
export interface PagedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required?: string[] };
  outputSchema?: Record<string, unknown>;
}

/**
 * A real MCP server (SDK `Server` over stateless streamable HTTP) whose tool list is paginated and editable; each
 * tool's call echoes its `text` argument.
 */
export interface PagedMcpServer {
  url: string;
  tools: PagedTool[];
  /** How many `initialize` requests arrived (one per client session). */
  initializeCount(): number;
  /** How many tools/list requests arrived (one per page asked). */
  listCount(): number;
  /** Delay before answering tools/list, so concurrent syncs overlap deterministically. */
  setListDelay(ms: number): void;
  /** Sends `count` tools/list_changed notifications (8 KiB each) before each tools/list answer (needs `sse`). */
  setListStorm(count: number): void;
  /** Answers tools/list with `page` (given the cursor asked for) instead of paging `tools`; undefined restores it. */
  setListPage(page: ((cursor: string | undefined) => { tools: PagedTool[]; nextCursor?: string }) | undefined): void;
  close(): Promise<void>;
}

/** `count` tools named t000… with one required string parameter each. */
export function makeTools(count: number): PagedTool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `t${String(i).padStart(3, '0')}`,
    description: `Tool number ${i}`,
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'Some text' } },
      required: ['text'],
    },
  }));
}

/** Starts the server on loopback; requests must carry `Authorization: Bearer <token>` or get 401. */
export async function startPagedMcpServer(options: {
  token: string;
  pageSize: number;
  tools: PagedTool[];
  /** Answer over SSE (`text/event-stream`) instead of a JSON body. */
  sse?: boolean;
  /** Answers `tools/call` (the server lists tools only without it). */
  callTool?: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;
}): Promise<PagedMcpServer> {
  let initializes = 0;
  let lists = 0;
  let listDelay = 0;
  let listStorm = 0;
  let listPage: ((cursor: string | undefined) => { tools: PagedTool[]; nextCursor?: string }) | undefined;
  const state = { tools: options.tools };

  const newServer = (): Server => {
    const server = new Server({ name: 'paged-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
      lists++;
      if (listDelay > 0) await new Promise((resolve) => setTimeout(resolve, listDelay));
      // Over SSE, on the request's own stream, before its answer.
      const padded = {
        method: 'notifications/tools/list_changed' as const,
        params: { _meta: { pad: 'x'.repeat(8192) } },
      };
      for (let i = 0; i < listStorm; i++) await extra.sendNotification(padded);
      if (listPage) return listPage(request.params?.cursor);
      const start = request.params?.cursor ? Number(Buffer.from(request.params.cursor, 'base64url').toString()) : 0;
      const page = state.tools.slice(start, start + options.pageSize);
      const next = start + options.pageSize;
      return {
        tools: page,
        ...(next < state.tools.length ? { nextCursor: Buffer.from(String(next)).toString('base64url') } : {}),
      };
    });
    const { callTool } = options;
    // Without `callTool`, every tool echoes its `text` argument, so a test chooses the size of a tool result.
    server.setRequestHandler(CallToolRequestSchema, async (request) =>
      callTool
        ? callTool(request.params.name, request.params.arguments ?? {})
        : { content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }] },
    );
    return server;
  };

  const httpServer = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const parsed: unknown = body ? JSON.parse(body) : undefined;
      if ((parsed as { method?: string } | undefined)?.method === 'initialize') initializes++;
      // Stateless: a fresh server and transport per request, closed when the response ends.
      const server = newServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: !options.sse,
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      server
        .connect(transport)
        .then(() => transport.handleRequest(req, res, parsed))
        .catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', () => resolve()));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get tools() {
      return state.tools;
    },
    set tools(tools: PagedTool[]) {
      state.tools = tools;
    },
    initializeCount: () => initializes,
    listCount: () => lists,
    setListDelay: (ms) => {
      listDelay = ms;
    },
    setListPage: (page) => {
      listPage = page;
    },
    setListStorm: (count) => {
      listStorm = count;
    },
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
