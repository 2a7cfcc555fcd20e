import type { AgentRun } from '../../db/tables/agent-run.table';
import {
  crmUpdateContactArgs,
  invalidArgumentsMessage,
  sendMessageArgs,
  type AgentToolDef,
  type BuiltinToolName,
} from '../../domain/agent/agent-tools';
import { findReplay, simulatedToolResult } from '../../domain/trajectory/tool-replay';
import { unreplayable } from './agent-turns';
import type { ToolExecution } from './tool-execution';

/** Answers a built-in tool in the sandbox: validated like the real one, a plausible result, nothing written. */
export function simulateBuiltinTool(name: BuiltinToolName, args: Record<string, unknown>, key: string): ToolExecution {
  const simulated = { args, simulated: true, replayed: false };
  if (name === 'crm_update_contact') {
    const parsed = crmUpdateContactArgs.safeParse(args);
    if (!parsed.success) return { ...simulated, error: invalidArgumentsMessage(name, parsed.error) };
    return { ...simulated, result: { status: 'updated', contact_id: parsed.data.contact_id, simulated: true } };
  }
  const parsed = sendMessageArgs.safeParse(args);
  if (!parsed.success) return { ...simulated, error: invalidArgumentsMessage(name, parsed.error) };
  return {
    ...simulated,
    result: {
      status: 'sent',
      message_id: `sandbox:${key}`,
      channel: parsed.data.channel,
      to: parsed.data.to,
      simulated: true,
    },
  };
}

/** Answers a tool in the sandbox with a plausible result, replaying nothing (an unmatched call under `simulate`). */
export function simulateInSandbox(tool: AgentToolDef, args: Record<string, unknown>, key: string): ToolExecution {
  if (tool.source.kind === 'builtin') return simulateBuiltinTool(tool.name as BuiltinToolName, args, key);
  return { args, result: simulatedToolResult(tool.source.tool_name, args), simulated: true, replayed: false };
}

/**
 * Answers an MCP tool in the sandbox without calling it: the recorded result (of the current turn, when the recording
 * had turns) when tool and arguments match, else simulated.
 */
export function answerMcpInSandbox(
  run: AgentRun,
  modelName: string,
  source: { tool_name: string; server_name: string },
  args: Record<string, unknown>,
): ToolExecution {
  const wanted = { name: source.tool_name, server: source.server_name, modelName };
  const index = findReplay(run.replay_calls, unreplayable(run), wanted, args);
  if (index === null) return { args, result: simulatedToolResult(wanted.name, args), simulated: true, replayed: false };
  const recorded = run.replay_calls[index];
  return {
    args,
    result: recorded.result,
    ...(recorded.error ? { error: recorded.error } : {}),
    simulated: true,
    replayed: true,
    replayIndex: index,
  };
}
