import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolDescriptorInput } from '../../../db/mcp-tool.repository';
import { jsonBytes, limitMessage } from '../../../domain/limit-checks';
import { LIMITS } from '../../../domain/limits';
import { flattenParameters } from '../../../domain/mcp/tool-parameters';
import { scrubbedJson } from './mcp-failure';
import { definitionHash, toolDefinition } from './tool-definition';

/** A server that broke the protocol in a way retrying will not fix; the message is safe to show. */
export class McpProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpProtocolError';
  }
}

type ListedTool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

// A descriptor is stored and sent to the model on every step: one that is too large is refused, naming the tool.
function descriptorBytes(tool: ListedTool): number {
  const bytes = jsonBytes(tool);
  if (bytes > LIMITS.toolDescriptorBytes)
    throw new McpProtocolError(
      `tool ${String(tool.name).slice(0, 200)} has a descriptor of ${bytes} bytes: ` +
        limitMessage('toolDescriptorBytes', 'bytes'),
    );
  return bytes;
}

/** What one listing has gathered so far; each bound is checked as soon as it can break. */
class Listing {
  readonly byName = new Map<string, ListedTool>();
  private readonly cursors = new Set<string>();
  private bytes = 0;
  private readonly deadline = Date.now() + LIMITS.toolListMs;

  /** The timeout of the next page: its own, cut to what is left of the listing's. */
  pageTimeout(timeoutMs: number): number {
    const left = this.deadline - Date.now();
    if (left <= 0) throw this.tooSlow();
    return Math.min(timeoutMs, left);
  }

  tooSlow(): McpProtocolError {
    return new McpProtocolError(`tools/list took too long: ${limitMessage('toolListMs', 'ms')}`);
  }

  past(): boolean {
    return Date.now() >= this.deadline;
  }

  add(tool: ListedTool): void {
    this.bytes += descriptorBytes(tool);
    if (this.bytes > LIMITS.toolListBytes)
      throw new McpProtocolError(`tools/list sent too many bytes of tools: ${limitMessage('toolListBytes', 'bytes')}`);
    if (!this.byName.has(tool.name)) this.byName.set(tool.name, tool);
    if (this.byName.size > LIMITS.toolsPerMcpServer)
      throw new McpProtocolError(
        `tools/list advertised more than ${LIMITS.toolsPerMcpServer} tools: ${limitMessage('toolsPerMcpServer', 'items')}`,
      );
  }

  follow(cursor: string): void {
    if (cursor.length > LIMITS.mcpCursorChars)
      throw new McpProtocolError(`tools/list sent a cursor too long: ${limitMessage('mcpCursorChars', 'characters')}`);
    if (this.cursors.has(cursor)) throw new McpProtocolError('tools/list repeated a cursor');
    this.cursors.add(cursor);
  }
}

/**
 * Lists every tool, following `nextCursor` up to `toolListPages` pages within `toolListMs`; a name listed twice keeps
 * its first entry. A server past the tools, bytes, cursor or time limit is refused as soon as it is (no further page
 * is asked), so a listing costs bounded time and memory whatever the server sends. A secret of the server's that a
 * definition carries is replaced (the same in sync and in the gateway's live check, so the pinned hashes agree).
 */
export async function listAllTools(
  client: Client,
  timeoutMs: number,
  secrets: readonly string[],
): Promise<ListedTool[]> {
  const listing = new Listing();
  let cursor: string | undefined;
  for (let page = 0; page < LIMITS.toolListPages; page++) {
    const result = await client
      .listTools(cursor === undefined ? undefined : { cursor }, { timeout: listing.pageTimeout(timeoutMs) })
      .catch((error: unknown) => {
        throw listing.past() ? listing.tooSlow() : error;
      });
    for (const tool of result.tools) listing.add(tool);
    if (!result.nextCursor) return [...listing.byName.values()].map((tool) => withoutSecrets(tool, secrets));
    listing.follow(result.nextCursor);
    cursor = result.nextCursor;
  }
  throw new McpProtocolError(`tools/list returned too many pages: ${limitMessage('toolListPages', 'items')}`);
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

function withoutSecrets(tool: ListedTool, secrets: readonly string[]): ListedTool {
  const { json, scrubbed } = scrubbedJson(tool, secrets);
  return scrubbed ? (JSON.parse(json) as ListedTool) : tool;
}
