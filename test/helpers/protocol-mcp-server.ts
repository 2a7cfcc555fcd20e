import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { serveStatefulMcp } from './stateful-mcp-http';

/** The output schema of the `order_total` tools. */
export const TOTAL_SCHEMA = {
  type: 'object',
  properties: { total: { type: 'number' } },
  required: ['total'],
} as const;

// Every field has a default but `note` (optional): an unattended client can accept with the defaults.
const CONFIRM_FORM: ElicitRequest['params'] = {
  message: 'Confirm the order?',
  requestedSchema: {
    type: 'object',
    properties: {
      quantity: { type: 'integer', default: 2 },
      gift: { type: 'boolean', default: false },
      note: { type: 'string' },
    },
    required: ['quantity'],
  },
};
// A required field without a default: only a person could answer, so the client declines.
const NAME_FORM: ElicitRequest['params'] = {
  message: 'Who are you?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

const empty = { type: 'object' as const, properties: {} };
const TOOLS = [
  { name: 'confirm_order', description: 'Asks to confirm (defaults answer it)', inputSchema: empty },
  { name: 'ask_name', description: 'Asks for a name (no default)', inputSchema: empty },
  { name: 'order_total', description: 'Totals the order', inputSchema: empty, outputSchema: TOTAL_SCHEMA },
  { name: 'order_total_broken', description: 'Totals wrongly', inputSchema: empty, outputSchema: TOTAL_SCHEMA },
];

/** A real stateful MCP server (SDK `Server`, Streamable HTTP with sessions) that elicits and returns structured content. */
export interface ProtocolMcpServer {
  url: string;
  /** What the client answered to each elicitation, in order. */
  elicitations: ElicitResult[];
  /** The name of each tool called (`tools/call` that reached this server), in order. */
  calls: string[];
  close(): Promise<void>;
}

/** Starts the server on loopback. */
export async function startProtocolMcpServer(): Promise<ProtocolMcpServer> {
  const elicitations: ElicitResult[] = [];
  const calls: string[] = [];

  const newServer = (): Server => {
    const server = new Server({ name: 'protocol-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
      const { name } = request.params;
      calls.push(name);
      if (name === 'order_total' || name === 'order_total_broken') {
        const total = name === 'order_total' ? 5 : 'five';
        return { content: [{ type: 'text', text: `total ${total}` }], structuredContent: { total } };
      }
      const form = name === 'confirm_order' ? CONFIRM_FORM : NAME_FORM;
      // On the call's own stream, as a request related to it.
      const answer = await extra.sendRequest({ method: 'elicitation/create', params: form }, ElicitResultSchema);
      elicitations.push(answer);
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    });
    return server;
  };

  const served = await serveStatefulMcp(newServer);
  return { url: served.url, elicitations, calls, close: served.close };
}
