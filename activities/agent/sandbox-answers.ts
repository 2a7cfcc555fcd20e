import { findCassetteSet, listToolCassetteEntries, recordCassetteEntry } from '../../db/cassette.repository';
import type { Db } from '../../db/database';
import type { AgentRun } from '../../db/tables/agent-run.table';
import type { AgentToolDef } from '../../domain/agent/agent-tools';
import { findCassetteEntry } from '../../domain/eval/cassette';
import { jsonBytes } from '../../domain/limit-checks';
import { LIMITS } from '../../domain/limits';
import type { ActivityDeps } from '../platform/activity-deps';
import { simulateInSandbox } from './sandbox-tools';
import { modelToolResponse } from './tool-response-model';
import { answerFromMocks, mcpResultOf, mockedToolOf } from './tool-mock-answers';
import type { ToolExecution } from './tool-execution';

type McpTool = AgentToolDef & { source: { kind: 'mcp' } };
const isMcp = (tool: AgentToolDef): tool is McpTool => tool.source.kind === 'mcp';

// A call of an MCP tool in a live eval run, answered from its set's cassette when an entry matches.
async function cassetteAnswer(
  db: Db,
  run: AgentRun,
  tool: McpTool,
  args: Record<string, unknown>,
): Promise<ToolExecution | null> {
  const setId = run.eval_run_id && (await findCassetteSet(db, run.eval_run_id));
  if (!setId || tool.source.kind !== 'mcp') return null;
  const wanted = { name: tool.source.tool_name, server: tool.source.server_name };
  const entry = findCassetteEntry(await listToolCassetteEntries(db, setId, wanted), wanted, args);
  if (!entry) return null;
  const answer = mcpResultOf(wanted.name, entry.response as Parameters<typeof mcpResultOf>[1]);
  return { args, ...answer, simulated: true, replayed: false, answeredBy: 'cassette' };
}

/**
 * What answers a sandbox call before its tool is looked at: a mock, else the set's cassette; a call neither answers is
 * unmatched (when the run has mocks); an MCP call gets a model-written response when the set opts in, else the mock
 * policy decides: `error` fails it, `simulate` simulates it, `replay`
 * leaves it to the recorded replay, the real call or the simulation as before (no execution).
 */
export async function answerBeforeTool(
  deps: ActivityDeps,
  run: AgentRun,
  tool: AgentToolDef,
  args: Record<string, unknown>,
  key: string,
): Promise<{ execution?: ToolExecution; unmatched: boolean }> {
  const mocks = run.tool_mocks;
  const mocked = mocks ? answerFromMocks(mocks, tool, args) : null;
  if (mocked) return { execution: mocked, unmatched: false };
  const recorded = isMcp(tool) ? await cassetteAnswer(deps.db, run, tool, args) : null;
  if (recorded) return { execution: recorded, unmatched: false };
  const unmatched = mocks !== null;
  if (mocks?.simulate_responses && isMcp(tool))
    return { execution: await modelToolResponse(deps, run, tool, args), unmatched };
  if (mocks?.policy === 'error') {
    const error = `no tool mock matched this call of ${mockedToolOf(tool).name} (the eval set's mock_policy is error)`;
    return { execution: { args, error, simulated: true, replayed: false }, unmatched };
  }
  if (mocks?.policy === 'simulate') return { execution: simulateInSandbox(tool, args, key), unmatched };
  return { unmatched };
}

/**
 * Records a real sandbox call's response into its set's cassette when the tool's link opts in: a result within
 * `cassetteResponseBytes` (the result as stored, secrets scrubbed; request headers are never part of it).
 */
export async function recordIntoCassette(db: Db, run: AgentRun, tool: AgentToolDef, execution: ToolExecution) {
  if (tool.source.kind !== 'mcp' || !tool.source.record_cassette || execution.result === undefined) return;
  if (jsonBytes(execution.result) > LIMITS.cassetteResponseBytes) return;
  const setId = run.eval_run_id && (await findCassetteSet(db, run.eval_run_id));
  if (!setId) return;
  await recordCassetteEntry(db, setId, {
    tool_name: tool.source.tool_name,
    server: tool.source.server_name,
    tool_args: execution.args,
    response: execution.result,
  });
}
