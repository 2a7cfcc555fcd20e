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

type McpResult = ToolMock['response'] & { structured_content?: unknown; is_error?: boolean };

/**
 * A mock's or a cassette's response (written in MCP's shape or as calls record it) as a real call's result is recorded
 * and sent to the model; an error result fails the call as a real one does.
 */
export function mcpResultOf(name: string, response: McpResult): Pick<ToolExecution, 'result' | 'error'> {
  const isError = response.isError === true || response.is_error === true;
  const result = {
    content: response.content ?? [],
    structured_content: response.structuredContent ?? response.structured_content ?? null,
    is_error: isError,
  };
  return isError ? { result, error: `tool ${name} returned an error` } : { result };
}

/** How the run's mocks answer a sandbox call: the first matching mock not used up, in order; else null. */
export function answerFromMocks(
  mocks: RunMocks,
  tool: AgentToolDef,
  args: Record<string, unknown>,
): ToolExecution | null {
  const wanted = mockedToolOf(tool);
  const index = findMock(mocks, wanted, args);
  if (index === null) return null;
  const answer = mcpResultOf(wanted.name, mocks.mocks[index].response);
  return { args, ...answer, simulated: true, replayed: false, mockIndex: index, answeredBy: 'mock' };
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
