import { findScoringRun } from '../../db/eval-run.repository';
import { resolveWorkspaceJudge } from '../../db/judge-resolution';
import type { RunJudge } from '../../db/tables/eval-run.table';
import type { AgentRun } from '../../db/tables/agent-run.table';
import type { AgentToolDef } from '../../domain/agent/agent-tools';
import { providerNotConnectedMessage } from '../../domain/eval/run-failures';
import { toolResponsePrompt } from '../../domain/eval/tool-response-prompt';
import { createProviderClient } from '../../lib/outbound/llm/provider-client';
import { outputSchemaProblem } from '../../lib/outbound/mcp/output-schema';
import type { ActivityDeps } from '../platform/activity-deps';
import { connectProvider, toActivityFailure } from '../platform/provider-connection';
import { mcpResultOf } from './tool-mock-answers';
import type { ToolExecution } from './tool-execution';

// A simulated response is asked once more after a refused one; a second refusal fails the call.
const ATTEMPTS = 2;
const CALL_TIMEOUT_MS = 60_000;

/** Why a model's answer is not a usable response of the tool (not JSON, not an MCP result, against its schema). */
export function responseProblem(content: string, outputSchema: unknown): string | null {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return 'the answer is not JSON';
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'the answer is not a JSON object';
  const { content: items, structuredContent } = value as { content?: unknown; structuredContent?: unknown };
  if (items !== undefined && !Array.isArray(items)) return 'content is not a list';
  if (!outputSchema) return items === undefined ? 'content is missing' : null;
  if (structuredContent === undefined) return 'structuredContent is missing (the tool declares an output schema)';
  const problem = outputSchemaProblem(outputSchema, structuredContent);
  return problem === null ? null : `structuredContent does not validate against the output schema: ${problem}`;
}

// The eval run's judge when it pinned one (a set with judged criteria), else the workspace's judge for the agent's model.
async function simulatorJudge(deps: ActivityDeps, run: AgentRun): Promise<RunJudge | { error: string }> {
  const evalRun = run.eval_run_id ? await findScoringRun(deps.db, run.eval_run_id) : undefined;
  return evalRun?.judge ?? resolveWorkspaceJudge(deps.db, run.workspace_id, run.model);
}

/**
 * A model-written response of an MCP tool the sandbox does not call, by the eval run's judge (provider and model):
 * validated against the tool's output schema, asked again once when refused, then an error. The judge usage of its
 * calls is kept with the recorded call.
 */
export async function modelToolResponse(
  deps: ActivityDeps,
  run: AgentRun,
  tool: AgentToolDef & { source: { kind: 'mcp' } },
  args: Record<string, unknown>,
): Promise<ToolExecution> {
  const judge = await simulatorJudge(deps, run);
  if ('error' in judge) return { args, error: judge.error, simulated: true, replayed: false };
  const notConnected = providerNotConnectedMessage(judge.provider, judge.model, 'judge');
  const { baseUrl, apiKey } = await connectProvider(deps, run.workspace_id, judge.provider, notConnected);
  const client = createProviderClient({
    provider: judge.provider,
    baseUrl,
    apiKey,
    fetch: deps.egress.fetch,
    timeoutMs: CALL_TIMEOUT_MS,
    maxRetries: 2,
  });
  const described = {
    name: tool.source.tool_name,
    description: tool.description,
    outputSchema: tool.source.output_schema,
  };
  const usage = { calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let problem: string | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const reply = await client
      .chatJson({ model: judge.model, messages: toolResponsePrompt(described, args, problem) })
      .catch((error: unknown) => {
        throw toActivityFailure(error);
      });
    usage.calls++;
    usage.prompt_tokens += reply.usage.prompt_tokens;
    usage.completion_tokens += reply.usage.completion_tokens;
    usage.total_tokens += reply.usage.total_tokens;
    problem = responseProblem(reply.content, described.outputSchema) ?? undefined;
    if (problem === undefined) {
      const answer = mcpResultOf(described.name, JSON.parse(reply.content));
      return { args, ...answer, simulated: true, replayed: false, answeredBy: 'model', simulationUsage: usage };
    }
  }
  const error = `the simulated response of ${described.name} was refused twice: ${problem}`;
  return { args, error, simulated: true, replayed: false, answeredBy: 'model', simulationUsage: usage };
}
