import type { AgentRunState } from '../../db/agent-run.repository';
import type { AgentRun } from '../../db/tables/agent-run.table';
import type { AgentToolDef } from '../../domain/agent/agent-tools';
import { findMock, type MockedTool, type RunMocks, type ToolMock } from '../../domain/eval/tool-mocks';
import type { ToolExecution } from './tool-execution';

/** The tool a call is for, as mocks name it: an MCP tool by its listed name and server, either by the offered name. */
export function mockedToolOf(tool: AgentToolDef): MockedTool {
  return tool.source.kind === 'mcp'
    ? { name: tool.source.tool_name, server: tool.source.server_name, modelName: tool.name }
    : { name: tool.name, modelName: tool.name };
}

// A mock's response is recorded and sent to the model as a real call's MCP result is.
function mockResult(name: string, response: ToolMock['response']): Pick<ToolExecution, 'result' | 'error'> {
  const result = {
    content: response.content ?? [],
    structured_content: response.structuredContent ?? null,
    is_error: response.isError === true,
  };
  return response.isError === true ? { result, error: `tool ${name} returned an error` } : { result };
}

/**
 * How the run's mocks answer a sandbox call: the first matching mock not used up, in order; else, by the policy, an
 * error (`error`), or nothing (the caller replays, simulates or calls it), the call being reported unmatched.
 */
export function answerFromMocks(
  mocks: RunMocks,
  tool: AgentToolDef,
  args: Record<string, unknown>,
): ToolExecution | { unmatched: true } {
  const wanted = mockedToolOf(tool);
  const index = findMock(mocks, wanted, args);
  if (index !== null)
    return {
      args,
      ...mockResult(wanted.name, mocks.mocks[index].response),
      simulated: true,
      replayed: false,
      mockIndex: index,
      answeredBy: 'mock',
    };
  if (mocks.policy !== 'error') return { unmatched: true };
  const error = `no tool mock matched this call of ${wanted.name} (the eval set's mock_policy is error)`;
  return { args, error, simulated: true, replayed: false, unmatched: true };
}

/** The run's mocks once a call was answered: the mock it used counted, or the call reported unmatched. */
export function mocksAfter(
  run: AgentRun,
  execution: ToolExecution,
  recorded: { tool_name: string; server?: string },
): Partial<Pick<AgentRunState, 'tool_mocks'>> {
  const mocks = run.tool_mocks;
  if (!mocks || (execution.mockIndex === undefined && !execution.unmatched)) return {};
  if (execution.mockIndex !== undefined) {
    const used = mocks.used.map((count, i) => (i === execution.mockIndex ? count + 1 : count));
    return { tool_mocks: { ...mocks, used } };
  }
  const unmatched = [...mocks.unmatched, { ...recorded, tool_args: execution.args }];
  return { tool_mocks: { ...mocks, unmatched } };
}
