import { jsonEqual } from './json-equal';

/** A call recorded in an earlier conversation: its name, arguments and the result it got. */
export interface RecordedCall {
  tool_name: string;
  tool_args: Record<string, unknown>;
  result?: unknown;
}

/** The first recorded call not yet replayed with the same name and deep-equal arguments and a result; else null. */
export function findReplay(
  recorded: readonly RecordedCall[],
  used: readonly number[],
  name: string,
  args: Record<string, unknown>,
): number | null {
  const index = recorded.findIndex(
    (call, i) =>
      !used.includes(i) &&
      call.result !== undefined &&
      call.tool_name === name &&
      jsonEqual(call.tool_args ?? {}, args),
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
