import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolDescriptorInput } from '../../../db/mcp-tool.repository';
import { jsonBytes, limitMessage } from '../../../domain/limit-checks';
import { LIMITS } from '../../../domain/limits';
import { flattenParameters } from '../../../domain/mcp/tool-parameters';
import { definitionHash, toolDefinition } from './tool-definition';

/** tools/list pages followed at most; a server needing more is refused rather than half-synced. */
export const MAX_TOOL_PAGES = 20;

/** A server that broke the protocol in a way retrying will not fix; the message is safe to show. */
export class McpProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpProtocolError';
  }
}

type ListedTool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

// A descriptor is stored and sent to the model on every step: one that is too large is refused, naming the tool.
function checkDescriptor(tool: ListedTool): void {
  const bytes = jsonBytes(tool);
  if (bytes > LIMITS.toolDescriptorBytes)
    throw new McpProtocolError(
      `tool ${String(tool.name).slice(0, 200)} has a descriptor of ${bytes} bytes: ` +
        limitMessage('toolDescriptorBytes', 'bytes'),
    );
}

/**
 * Lists every tool, following `nextCursor` up to {@link MAX_TOOL_PAGES} pages; a name listed twice keeps its first
 * entry. A server advertising more than the tools limit is refused as soon as it does (no further page is asked).
 */
export async function listAllTools(client: Client, timeoutMs: number): Promise<ListedTool[]> {
  const byName = new Map<string, ListedTool>();
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: timeoutMs });
    for (const tool of result.tools) {
      checkDescriptor(tool);
      if (!byName.has(tool.name)) byName.set(tool.name, tool);
    }
    if (byName.size > LIMITS.toolsPerMcpServer)
      throw new McpProtocolError(
        `tools/list advertised more than ${LIMITS.toolsPerMcpServer} tools: ${limitMessage('toolsPerMcpServer', 'items')}`,
      );
    if (!result.nextCursor) return [...byName.values()];
    if (seenCursors.has(result.nextCursor)) throw new McpProtocolError('tools/list repeated a cursor');
    seenCursors.add(result.nextCursor);
    cursor = result.nextCursor;
  }
  throw new McpProtocolError(`tools/list returned more than ${MAX_TOOL_PAGES} pages`);
}

/**
 * The persisted form of a listed tool: flattened parameters, the raw schema, title, annotations and icons, and the
 * definition hash that pins it (name, title, description, schemas, annotations).
 */
export function toToolDescriptor(tool: ListedTool): ToolDescriptorInput {
  const definition = toolDefinition(tool);
  return {
    name: tool.name,
    description: definition.description,
    parameters: flattenParameters(tool.inputSchema),
    inputSchema: tool.inputSchema,
    ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool.icons ? { icons: tool.icons } : {}),
    definition,
    hash: definitionHash(definition),
  };
}
