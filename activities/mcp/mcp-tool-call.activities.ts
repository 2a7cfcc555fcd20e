import { ApplicationFailure, Context } from '@temporalio/activity';
import { findServerTools } from '../../db/mcp-tool.repository';
import { outputSchemaProblem } from '../../lib/outbound/mcp/output-schema';
import { callServerTool } from '../../lib/outbound/mcp/tool-call';
import type { ActivityDeps } from '../platform/activity-deps';
import type { McpServerRef } from './mcp.activities';

/** One playground call: a synced tool of a workspace's server and its arguments. */
export interface McpToolCallInput extends McpServerRef {
  toolName: string;
  arguments: Record<string, unknown>;
}

/** What the tool answered (secret values scrubbed), and whether its structured content fits its output schema. */
export interface McpToolCallResult {
  content: unknown[];
  structuredContent?: unknown;
  isError: boolean;
  latency_ms: number;
  /** Null when the tool declares no output schema (or answered an error, which the schema does not cover). */
  output_schema_check: { valid: boolean; errors?: string[] } | null;
}

interface ToolOutput {
  content: unknown[];
  structured_content: unknown;
  is_error: boolean;
}

function outputCheck(schema: unknown, output: ToolOutput): McpToolCallResult['output_schema_check'] {
  if (schema === null || schema === undefined || output.is_error) return null;
  if (output.structured_content === null)
    return { valid: false, errors: ['the tool declares an outputSchema but answered no structuredContent'] };
  const problem = outputSchemaProblem(schema, output.structured_content);
  return problem === null ? { valid: true } : { valid: false, errors: [problem] };
}

/** The playground's call: one `tools/call` through the egress guard, never retried (a tool may have effects). */
export function createMcpToolCallActivities(deps: ActivityDeps) {
  return {
    /** Calls a synced tool once and answers its raw result; a call that got no result fails with the reason. */
    async callMcpTool(input: McpToolCallInput): Promise<McpToolCallResult> {
      const started = performance.now();
      const outcome = await callServerTool({
        signal: Context.current().cancellationSignal,
        db: deps.db,
        vault: deps.vault,
        guard: deps.egress,
        workspaceId: input.workspaceId,
        serverId: input.serverId,
        toolName: input.toolName,
        args: input.arguments,
      });
      const latency = Math.round(performance.now() - started);
      const output = outcome.output as ToolOutput | undefined;
      if (!output) throw ApplicationFailure.nonRetryable(outcome.error ?? 'the call failed', 'McpCallFailed');
      const [tool] = await findServerTools(deps.db, input.serverId, [input.toolName]);
      return {
        content: output.content,
        ...(output.structured_content === null ? {} : { structuredContent: output.structured_content }),
        isError: output.is_error,
        latency_ms: latency,
        output_schema_check: outputCheck(tool?.output_schema, output),
      };
    },
  };
}
