import { z } from 'zod';
import { boundedArray, boundedRecord, boundedString } from '../bounded-schemas';
import { limitMessage } from '../limit-checks';
import { LIMITS } from '../limits';

/** How a tool name is joined to its server's name when a link sets no `tool_prefix`. */
export const DEFAULT_PREFIX_SEPARATOR = '__';

/** Every tool of the server: the default allowlist of a link. */
export const ALL_TOOLS = '*';

/** What the gateway puts before a server's tool names: the link's `tool_prefix`, else `<server name>__`. */
export function toolPrefixOf(serverName: string, toolPrefix: string | null): string {
  return toolPrefix ?? `${serverName}${DEFAULT_PREFIX_SEPARATOR}`;
}

/** True when a link's allowlist (`["*"]` or names) lets the gateway expose `tool`. */
export function toolAllowed(allowlist: readonly string[], tool: string): boolean {
  return allowlist.includes(ALL_TOOLS) || allowlist.includes(tool);
}

/** What a tool name or prefix may contain: the characters MCP clients accept in tool names. */
const TOOL_NAME_CHARS = /^[A-Za-z0-9_.-]*$/;

/** A link's allowlist: `["*"]` (every tool) or upstream tool names. */
export const toolAllowlistSchema = boundedArray(z.string().min(1).max(200), 'toolsPerMcpServer')
  .min(1, 'give ["*"] for every tool, or at least one tool name')
  .describe('upstream tool names the gateway exposes; ["*"] (the default) for every tool');

/** A link's `tool_prefix`: null for `<server name>__`, "" for none. */
export const toolPrefixSchema = boundedString('toolPrefixChars')
  .regex(TOOL_NAME_CHARS, 'letters, digits, "_", "-" and "." only')
  .nullable()
  .describe('what the gateway puts before each tool name; null (the default): "<server name>__"; "" for none');

/** A link's per-tool overrides in the gateway. */
export const toolOverridesSchema = boundedRecord(
  z.strictObject({
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.gatewayCallTimeoutMaxMs, limitMessage('gatewayCallTimeoutMaxMs', 'ms'))
      .optional()
      .describe('the gateway call timeout of this tool (default 60,000 ms)'),
    read_only: z.boolean().optional().describe('shown to gateway clients as annotations.readOnlyHint'),
  }),
  'toolsPerMcpServer',
).describe('per upstream tool name: timeout_ms and read_only');
