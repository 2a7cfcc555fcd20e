import { ApplicationFailure } from '@temporalio/common';
import { findFlow } from '../db/flow.repository';
import { finishFlowRun, findFlowRun, markFlowRunStarted, recordFlowNodeResult } from '../db/flow-run.repository';
import { findServerTools } from '../db/mcp-tool.repository';
import type { Flow, FlowNodeResult, FlowRun, McpCallToolNode } from '../db/tables/flow.table';
import { FlowExpressionError, renderValue, type FlowScope } from '../domain/flow-expression';
import { coerceArgument } from '../domain/tool-parameters';
import { createEgressGuard } from '../lib/egress/egress-guard';
import { describeMcpFailure, scrubSecrets } from '../lib/mcp/mcp-failure';
import { withMcpSession } from '../lib/mcp/mcp-session';
import { preflightRefusal } from '../lib/mcp/preflight';
import { resolveServerTarget, type ResolvedServer } from '../lib/mcp/server-target';
import type { ActivityDeps } from './index';

/** Which run of which workspace. */
export interface FlowRunRef {
  workspaceId: string;
  flowRunId: string;
}

/** A node's outcome as the workflow sees it; the output itself stays in Postgres. */
export interface FlowNodeOutcome {
  status: 'completed' | 'failed';
  error?: string;
}

/** A tool call may run long (the handshake keeps the 5000 ms limit). */
const TOOL_CALL_TIMEOUT_MS = 60_000;

/** Flow activities: start a run, run one `mcp.call_tool` node, finish the run. */
export function createFlowActivities(deps: ActivityDeps) {
  const guard = createEgressGuard({ allowlist: deps.config.EGRESS_ALLOWLIST });

  async function load(ref: FlowRunRef): Promise<{ run: FlowRun; flow: Flow; nodes: McpCallToolNode[] }> {
    const run = await findFlowRun(deps.db, ref.workspaceId, ref.flowRunId);
    const flow = run && (await findFlow(deps.db, ref.workspaceId, run.flow_id));
    if (!run || !flow) throw ApplicationFailure.nonRetryable('flow run not found', 'FlowRunNotFound');
    return { run, flow, nodes: flow.nodes };
  }

  async function renderArguments(run: FlowRun, node: McpCallToolNode, nodes: McpCallToolNode[]): Promise<Record<string, unknown>> {
    const results = run.node_results;
    const earlier = nodes.slice(0, nodes.findIndex((n) => n.id === node.id));
    const scope: FlowScope = {
      variables: run.variables as Record<string, unknown>,
      nodes: Object.fromEntries(earlier.filter((n) => results[n.id]).map((n) => [n.id, { output: results[n.id].output }])),
    };
    const [tool] = await findServerTools(deps.db, node.mcp_server_id, [node.tool_name]);
    const types = new Map((tool?.parameters ?? []).map((p) => [p.name, p.type]));
    return Object.fromEntries(
      Object.entries(node.parameters).map(([name, template]) => [name, coerceArgument(renderValue(template, scope), types.get(name) ?? 'string')]),
    );
  }

  async function callTool(ref: FlowRunRef, node: McpCallToolNode, args: Record<string, unknown>): Promise<FlowNodeResult> {
    let resolved: ResolvedServer | undefined;
    try {
      resolved = await resolveServerTarget(deps.db, deps.vault, ref.workspaceId, node.mcp_server_id);
      const refusal = await preflightRefusal(resolved.target, guard);
      if (refusal) return { status: 'failed', arguments: args, error: refusal, finished_at: new Date().toISOString() };
      const result = await withMcpSession(resolved.target, guard, (session) =>
        session.client.callTool({ name: node.tool_name, arguments: args }, undefined, { timeout: TOOL_CALL_TIMEOUT_MS }),
      );
      // A tool may echo what it was given (get-env prints its environment): secret values never reach Postgres.
      const output = JSON.parse(scrubSecrets(JSON.stringify({ content: result.content, structured_content: result.structuredContent ?? null, is_error: result.isError === true }), resolved.secretValues)) as unknown;
      const failed = result.isError === true;
      return { status: failed ? 'failed' : 'completed', arguments: args, output, ...(failed ? { error: `tool ${node.tool_name} returned an error` } : {}), finished_at: new Date().toISOString() };
    } catch (error) {
      const message = describeMcpFailure(error, { timeoutMs: TOOL_CALL_TIMEOUT_MS, secrets: resolved?.secretValues ?? [] }).message;
      return { status: 'failed', arguments: args, error: message, finished_at: new Date().toISOString() };
    }
  }

  return {
    /** Marks the run running and answers its node ids in order. */
    async startFlowRun(ref: FlowRunRef): Promise<{ nodeIds: string[] }> {
      const { nodes } = await load(ref);
      await markFlowRunStarted(deps.db, ref.flowRunId);
      return { nodeIds: nodes.map((node) => node.id) };
    },

    /** Renders one node's `{{ }}` parameters, calls its tool through the guard and records the result. */
    async runFlowNode(ref: FlowRunRef & { nodeId: string }): Promise<FlowNodeOutcome> {
      const { run, nodes } = await load(ref);
      const node = nodes.find((n) => n.id === ref.nodeId);
      if (!node) throw ApplicationFailure.nonRetryable(`node ${ref.nodeId} not found`, 'FlowNodeNotFound');
      let result: FlowNodeResult;
      try {
        result = await callTool(ref, node, await renderArguments(run, node, nodes));
      } catch (error) {
        if (!(error instanceof FlowExpressionError)) throw error;
        result = { status: 'failed', error: error.message, finished_at: new Date().toISOString() };
      }
      await recordFlowNodeResult(deps.db, ref.flowRunId, node.id, result);
      return { status: result.status, ...(result.error ? { error: result.error } : {}) };
    },

    /** Ends the run as completed or failed. */
    async completeFlowRun(ref: FlowRunRef & { status: 'completed' | 'failed'; error?: string }): Promise<{ status: string }> {
      const run = await finishFlowRun(deps.db, ref.flowRunId, ref.status, ref.error ?? null);
      return { status: run.status };
    },
  };
}

export type FlowActivities = ReturnType<typeof createFlowActivities>;
