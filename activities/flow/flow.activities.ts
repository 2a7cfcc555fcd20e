import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { findFlow } from '../../db/flow.repository';
import { findFlowRun, markFlowRunStarted, recordFlowNodeResult } from '../../db/flow-run.repository';
import { endFlowRun } from '../../lib/run-ends';
import { findMcpServer } from '../../db/mcp-server.repository';
import { findServerTools } from '../../db/mcp-tool.repository';
import type { Flow, FlowNodeResult, FlowRun, McpCallToolNode } from '../../db/tables/flow.table';
import type { McpTool } from '../../db/tables/mcp.table';
import { FlowExpressionError, renderValue, type FlowScope } from '../../domain/flow/flow-expression';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { overLimit } from '../../domain/limit-checks';
import { quarantineMessage } from '../../domain/mcp/tool-approval';
import { coerceArgument } from '../../domain/mcp/tool-parameters';
import { callServerTool } from '../../lib/outbound/mcp/tool-call';
import { withHeartbeat } from '../platform/heartbeat';
import type { ActivityDeps } from '../platform/activity-deps';
import { oauthClientUrls } from '../../lib/mcp/oauth-vault';

class QuarantinedToolError extends Error {}

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

/** Flow activities: start a run, run one `mcp.call_tool` node, finish the run. */
export function createFlowActivities(deps: ActivityDeps) {
  const guard = deps.egress;

  async function load(ref: FlowRunRef): Promise<{ run: FlowRun; flow: Flow; nodes: McpCallToolNode[] }> {
    const run = await findFlowRun(deps.db, ref.workspaceId, ref.flowRunId);
    const flow = run && (await findFlow(deps.db, ref.workspaceId, run.flow_id));
    if (!run || !flow) throw ApplicationFailure.nonRetryable('flow run not found', RUN_FAILURE.flowRunNotFound);
    return { run, flow, nodes: flow.nodes };
  }

  async function quarantineOf(ref: FlowRunRef, tool: McpTool): Promise<string> {
    const server = await findMcpServer(deps.db, ref.workspaceId, tool.server_id);
    return quarantineMessage(tool.name, server?.name ?? tool.server_id);
  }

  async function renderArguments(
    run: FlowRun,
    node: McpCallToolNode,
    nodes: McpCallToolNode[],
    tool: McpTool | undefined,
  ): Promise<Record<string, unknown>> {
    // A Map, so a node id such as `toString` finds only a recorded result, never an inherited property.
    const results = new Map(Object.entries(run.node_results));
    const earlier = nodes.slice(
      0,
      nodes.findIndex((n) => n.id === node.id),
    );
    const scope: FlowScope = {
      variables: run.variables,
      nodes: Object.fromEntries(
        earlier.flatMap((n) => {
          const result = results.get(n.id);
          return result ? [[n.id, { output: result.output }]] : [];
        }),
      ),
    };
    const types = new Map((tool?.parameters ?? []).map((p) => [p.name, p.type]));
    return Object.fromEntries(
      Object.entries(node.parameters).map(([name, template]) => [
        name,
        coerceArgument(renderValue(template, scope), types.get(name) ?? 'string'),
      ]),
    );
  }

  async function callTool(
    ref: FlowRunRef,
    node: McpCallToolNode,
    args: Record<string, unknown>,
  ): Promise<FlowNodeResult> {
    const outcome = await callServerTool({
      signal: Context.current().cancellationSignal,
      db: deps.db,
      vault: deps.vault,
      guard,
      oauthClient: oauthClientUrls(deps.config),
      workspaceId: ref.workspaceId,
      serverId: node.mcp_server_id,
      toolName: node.tool_name,
      args,
    });
    return { ...outcome, arguments: args, finished_at: new Date().toISOString() };
  }

  return {
    /** Marks the run running and answers its node ids in order and how long one node may run. */
    async startFlowRun(ref: FlowRunRef): Promise<{ nodeIds: string[]; nodeTimeoutMs: number }> {
      const { nodes } = await load(ref);
      // A flow stored before the limit existed is refused (the run ends failed saying why) rather than run.
      const tooMany = overLimit('the flow nodes', nodes.length, 'flowNodes');
      if (tooMany) {
        await endFlowRun(deps.db, ref.flowRunId, { status: 'failed', error: tooMany });
        throw ApplicationFailure.nonRetryable(tooMany, RUN_FAILURE.limitExceeded);
      }
      await markFlowRunStarted(deps.db, ref.flowRunId);
      return { nodeIds: nodes.map((node) => node.id), nodeTimeoutMs: deps.config.FLOW_NODE_TIMEOUT_SECONDS * 1000 };
    },

    /** Renders one node's `{{ }}` parameters, calls its tool through the guard and records the result. */
    async runFlowNode(ref: FlowRunRef & { nodeId: string }): Promise<FlowNodeOutcome> {
      const { run, nodes } = await load(ref);
      const node = nodes.find((n) => n.id === ref.nodeId);
      if (!node) throw ApplicationFailure.nonRetryable(`node ${ref.nodeId} not found`, RUN_FAILURE.flowNodeNotFound);
      let result: FlowNodeResult;
      const [tool] = await findServerTools(deps.db, node.mcp_server_id, [node.tool_name]);
      const quarantined = tool?.status === 'quarantined' && (await quarantineOf(ref, tool));
      try {
        // A tool quarantined since the flow was saved is not called: the node fails saying why.
        if (quarantined) throw new QuarantinedToolError(quarantined);
        const args = await renderArguments(run, node, nodes, tool);
        // Heartbeats tell a timed-out or cancelled node to stop, and a dead worker's node fails soon.
        result = await withHeartbeat(() => callTool(ref, node, args));
      } catch (error) {
        if (!(error instanceof FlowExpressionError || error instanceof QuarantinedToolError)) throw error;
        result = { status: 'failed', error: error.message, finished_at: new Date().toISOString() };
      }
      // Timed out or cancelled: the workflow has moved on and records the node's end itself.
      if (Context.current().cancellationSignal.aborted) throw new CancelledFailure('the node was cancelled');
      await recordFlowNodeResult(deps.db, ref.flowRunId, node.id, result);
      return { status: result.status, ...(result.error ? { error: result.error } : {}) };
    },

    /** Ends the run as completed, failed or cancelled; a stopped node without a recorded result gets its error. */
    async completeFlowRun(
      ref: FlowRunRef & {
        status: 'completed' | 'failed' | 'cancelled';
        error?: string;
        stoppedNode?: { id: string; error: string };
      },
    ): Promise<{ status: string }> {
      if (ref.stoppedNode) {
        const { id, error } = ref.stoppedNode;
        const result: FlowNodeResult = { status: 'failed', error, finished_at: new Date().toISOString() };
        await recordFlowNodeResult(deps.db, ref.flowRunId, id, result, true);
      }
      const run = await endFlowRun(deps.db, ref.flowRunId, { status: ref.status, error: ref.error ?? null });
      return { status: run.status };
    },
  };
}
