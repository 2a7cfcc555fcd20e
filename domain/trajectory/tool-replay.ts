import { jsonEqual } from '../json/json-equal';

/** A call recorded in an earlier conversation: its name, MCP server, arguments and the result it got. */
export interface RecordedCall {
  tool_name: string;
  tool_args: Record<string, unknown>;
  server?: string;
  result?: unknown;
}

/**
 * The tool a sandbox call is for: its name as recorded (an MCP tool's as its server lists it) and its MCP server;
 * `modelName` is the name the model called, which recordings made before calls were recorded by listed name carry.
 */
export interface ReplayedTool {
  name: string;
  server?: string;
  modelName?: string;
}

const sameTool = (call: RecordedCall, tool: ReplayedTool): boolean =>
  (call.tool_name === tool.name && (call.server ?? tool.server) === tool.server) ||
  (tool.modelName !== undefined && call.server === undefined && call.tool_name === tool.modelName);

/**
 * The first recorded call not yet replayed of the same tool (a recording without a server matches the tool of any
 * server) with deep-equal arguments and a result; else null.
 */
export function findReplay(
  recorded: readonly RecordedCall[],
  used: readonly number[],
  tool: ReplayedTool,
  args: Record<string, unknown>,
): number | null {
  const index = recorded.findIndex(
    (call, i) =>
      !used.includes(i) && call.result !== undefined && sameTool(call, tool) && jsonEqual(call.tool_args ?? {}, args),
  );
  return index === -1 ? null : index;
}

/** What a sandbox answers for a tool it does not call and cannot replay. */
export function simulatedToolResult(name: string, args: Record<string, unknown>): Record<string, unknown> {
  return {
    simulated: true,
    tool: name,
    arguments: args,
    note: 'sandbox: the tool was not called and no recorded response matched',
  };
}
