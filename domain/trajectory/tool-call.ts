import { z } from 'zod';
import { boundedObject } from '../bounded-schemas';

/**
 * Validates one tool call as the spec writes it in `expected_trajectory`. `server` (optional) names the MCP server
 * of an MCP tool; an expected call that gives it matches only a call recorded from that server.
 */
export const toolCallSchema = z.object({
  tool_name: z.string().min(1).max(200),
  tool_args: boundedObject('toolArgsBytes'),
  server: z.string().min(1).max(200).optional(),
});

/** One tool call: the tool's name (an MCP tool's as `GET …/tools` lists it), its arguments, and its MCP server. */
export interface ToolCall {
  tool_name: string;
  tool_args: Record<string, unknown>;
  server?: string;
}
