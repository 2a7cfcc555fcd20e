import { ApplicationFailure } from '@temporalio/common';
import { findAgentRun, updateAgentRun, type AgentRunState } from '../../db/agent-run.repository';
import type { AgentRun } from '../../db/tables/agent-run.table';
import type { RequestedToolCall } from '../../domain/agent/agent-messages';
import {
  parseToolArguments,
  type AgentToolDef,
  type AgentToolSource,
  type BuiltinToolName,
} from '../../domain/agent/agent-tools';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { callServerTool } from '../../lib/outbound/mcp/tool-call';
import { callKey } from './agent-step';
import { runBuiltinTool } from './builtin-tools';
import { withHeartbeat } from '../platform/heartbeat';
import type { ActivityDeps } from '../platform/activity-deps';
import { answerBeforeTool, recordIntoCassette } from './sandbox-answers';
import { answerMcpInSandbox, simulateBuiltinTool } from './sandbox-tools';
import { mocksAfter } from './tool-mock-answers';
import { toolMessageContent, type ToolExecution } from './tool-execution';
import { oauthClientUrls } from '../../lib/mcp/oauth-vault';

/** Which call of which run: its step and its position among that step's calls. */
export interface AgentToolCallRef {
  runId: string;
  step: number;
  index: number;
}

const INTERRUPTED =
  'the call was interrupted (its worker stopped) and is not repeated, since it may already have had its effect';

// What a call is recorded as: an MCP tool by its name as the server lists it plus the server, not the model's name.
function recordedName(run: AgentRun, call: RequestedToolCall): { tool_name: string; server?: string } {
  const source = run.tools.find((candidate) => candidate.name === call.name)?.source;
  return source?.kind === 'mcp'
    ? { tool_name: source.tool_name, server: source.server_name }
    : { tool_name: call.name };
}

// The tool message and the recorded call are written together, once; a replayed recording is used up.
function recordExecution(
  run: AgentRun,
  key: string,
  call: RequestedToolCall,
  execution: ToolExecution,
): { patch?: Partial<AgentRunState>; value: { status: 'completed' | 'failed' } } {
  const status = execution.error === undefined ? 'completed' : 'failed';
  if (run.tool_calls.some((recorded) => recorded.call_key === key)) return { value: { status } };
  const recorded = {
    ...recordedName(run, call),
    tool_args: execution.args,
    ...(execution.result !== undefined ? { result: execution.result } : {}),
    ...(execution.error !== undefined ? { error: execution.error } : {}),
    simulated: execution.simulated,
    replayed: execution.replayed,
    ...(execution.answeredBy ? { answered_by: execution.answeredBy } : {}),
    ...(execution.simulationUsage ? { judge_usage: execution.simulationUsage } : {}),
    call_key: key,
  };
  return {
    patch: {
      ...mocksAfter(run, execution, recordedName(run, call)),
      tool_calls: [...run.tool_calls, recorded],
      messages: [...run.messages, { role: 'tool', tool_call_id: call.id, content: toolMessageContent(execution) }],
      ...(execution.replayIndex !== undefined ? { replay_used: [...run.replay_used, execution.replayIndex] } : {}),
    },
    value: { status },
  };
}

/** The tool-call activity of the agent runtime: production executes, the sandbox simulates, replays or opts in. */
export function createAgentToolCallActivities(deps: ActivityDeps) {
  const guard = deps.egress;

  // A real MCP call in production is made at most once: a retry after a lost worker records it as interrupted.
  async function callMcp(
    run: AgentRun,
    source: Extract<AgentToolSource, { kind: 'mcp' }>,
    args: Record<string, unknown>,
    key: string,
  ): Promise<ToolExecution> {
    if (run.mode === 'production') {
      const first = await updateAgentRun(deps.db, run.id, (current) =>
        current.started_calls.includes(key)
          ? { value: false }
          : { patch: { started_calls: [...current.started_calls, key] }, value: true },
      );
      if (!first) return { args, error: INTERRUPTED, simulated: false, replayed: false };
    }
    const outcome = await callServerTool({
      db: deps.db,
      vault: deps.vault,
      guard,
      oauthClient: oauthClientUrls(deps.config),
      workspaceId: run.workspace_id,
      serverId: source.server_id,
      toolName: source.tool_name,
      args,
    });
    return {
      args,
      ...(outcome.output !== undefined ? { result: outcome.output } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      simulated: false,
      replayed: false,
    };
  }

  async function execute(run: AgentRun, call: RequestedToolCall, key: string): Promise<ToolExecution> {
    const sandbox = run.mode === 'sandbox';
    const parsed = parseToolArguments(call.arguments);
    if (!parsed.ok) return { args: {}, error: parsed.error, simulated: sandbox, replayed: false };
    const tool = run.tools.find((candidate) => candidate.name === call.name);
    if (!tool) return { args: parsed.args, error: `unknown tool ${call.name}`, simulated: sandbox, replayed: false };
    if (!sandbox) return runTool(run, tool, parsed.args, key);
    // Mocks and the cassette answer first; the calls run sequentially, so the mock counts read here are current.
    const before = await answerBeforeTool(deps, run, tool, parsed.args, key);
    const unmatched = before.unmatched ? { unmatched: true } : {};
    if (before.execution) return { ...before.execution, ...unmatched };
    const execution = await runTool(run, tool, parsed.args, key);
    if (!execution.simulated) await recordIntoCassette(deps.db, run, tool, execution);
    return { ...execution, ...unmatched };
  }

  async function runTool(
    run: AgentRun,
    tool: AgentToolDef,
    args: Record<string, unknown>,
    key: string,
  ): Promise<ToolExecution> {
    const sandbox = run.mode === 'sandbox';
    if (tool.source.kind === 'builtin') {
      const name = tool.name as BuiltinToolName;
      return sandbox ? simulateBuiltinTool(name, args, key) : runBuiltinTool(deps.db, run, name, args, key);
    }
    // Sandbox: a server the agent's link opts in (read-only servers) is called for real; any other is never dialled.
    if (sandbox && !tool.source.sandbox_real_calls) return answerMcpInSandbox(run, tool.name, tool.source, args);
    return callMcp(run, tool.source, args, key);
  }

  return {
    /** Runs one tool call the model asked for and records its result once (heartbeats while the tool works). */
    async runAgentToolCall(ref: AgentToolCallRef): Promise<{ status: 'completed' | 'failed' }> {
      const run = await findAgentRun(deps.db, ref.runId);
      if (!run)
        throw ApplicationFailure.nonRetryable(`agent run ${ref.runId} no longer exists`, RUN_FAILURE.agentRunNotFound);
      const key = callKey(ref.step, ref.index);
      const done = run.tool_calls.find((recorded) => recorded.call_key === key);
      if (done) return { status: done.error === undefined ? 'completed' : 'failed' };
      const outcome = run.steps[ref.step];
      const call = outcome?.kind === 'tools' ? outcome.tool_calls[ref.index] : undefined;
      if (!call)
        throw ApplicationFailure.nonRetryable(
          `agent run ${ref.runId} has no tool call ${key}`,
          RUN_FAILURE.agentToolCallNotFound,
        );
      const execution = await withHeartbeat(() => execute(run, call, key));
      return updateAgentRun(deps.db, run.id, (current) => recordExecution(current, key, call, execution));
    },
  };
}
