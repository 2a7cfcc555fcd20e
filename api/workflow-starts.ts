import crypto from 'node:crypto';
import { WorkflowFailedError, WorkflowNotFoundError, type WorkflowStartOptions } from '@temporalio/client';
import { TimeoutFailure, type Workflow } from '@temporalio/common';
import { markWorkspaceDeleted, unmarkWorkspaceDeleted } from '../db/workspace.repository';
import type { EvalRun } from '../db/tables/eval-run.table';
import type { FlowRun } from '../db/tables/flow.table';
import { CANCELLED } from '../domain/eval/run-end';
import { logError } from '../lib/logger';
import { endEvalRun, endFlowRun } from '../lib/run-ends';
import type { agentRunWorkflow } from '../workflows/agent-run.workflow';
import type { evalRunWorkflow } from '../workflows/eval-run.workflow';
import type { flowRunWorkflow } from '../workflows/flow-run.workflow';
import type { mcpServerTestWorkflow } from '../workflows/mcp-server-test.workflow';
import type { mcpToolCallWorkflow } from '../workflows/mcp-tool-call.workflow';
import type { mcpToolSyncWorkflow } from '../workflows/mcp-tool-sync.workflow';
import type { workspaceDeletionWorkflow } from '../workflows/workspace-deletion.workflow';
import {
  AgentIdKey,
  EvalRunStatusKey,
  EvalSetIdKey,
  McpServerIdKey,
  WorkspaceIdKey,
  workflowIds,
} from '../workflows/temporal-names';
import type { AppDeps } from './app-deps';
import { HttpError, type HttpErrorCode } from './http-error';
import { requirePollingWorker } from './worker-pollers';

/**
 * The one way the api starts (and cancels) workflows: each start names its workflow, id, search attributes and id policy here, on
 * the configured task queue, and a start that fails (Temporal unreachable, refused) is logged and answered with one
 * error, 503 `unavailable`. Workflows are named by string with `import type`, so the api never loads workflow code.
 */

const UNAVAILABLE = 'the workflow service is unavailable';

/** What a failed start leaves behind: the run row it marks failed, named in the log and the error's details. */
interface StartFailure {
  message: string;
  logFields: Record<string, string>;
  markFailed(): Promise<unknown>;
  runId: string;
}

// Ids are fresh per run (or shared on purpose with USE_EXISTING), so a failed start means Temporal cannot take work.
async function startOnQueue<W extends Workflow>(
  deps: AppDeps,
  workflowType: string,
  options: Omit<WorkflowStartOptions<W>, 'taskQueue'>,
  failure?: StartFailure,
): Promise<void> {
  try {
    const queued = { ...options, taskQueue: deps.config.TEMPORAL_TASK_QUEUE } as WorkflowStartOptions<W>;
    await deps.temporal.workflow.start<W>(workflowType, queued);
  } catch (error) {
    deps.logger.error({ ...logError(error), ...failure?.logFields }, failure?.message ?? `${workflowType} not started`);
    if (!failure) throw new HttpError(503, 'unavailable', UNAVAILABLE);
    await failure.markFailed();
    throw new HttpError(503, 'unavailable', `${UNAVAILABLE}; the run was marked failed`, { run_id: failure.runId });
  }
}

function innermost(error: Error): Error {
  let current = error;
  for (let depth = 0; depth < 6 && current.cause instanceof Error; depth++) current = current.cause;
  return current;
}

// Waits for a started workflow (following continue-as-new, as `execute` does); a failed workflow becomes a 502
// carrying its (secret-free) failure message, one that no worker finished in time a 504.
async function awaitResult<W extends Workflow>(deps: AppDeps, workflowId: string, code: HttpErrorCode) {
  try {
    return await deps.temporal.workflow.result<W>(workflowId, undefined, { followRuns: true });
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw error;
    const cause = error.cause ? innermost(error.cause) : undefined;
    if (cause instanceof TimeoutFailure || !cause)
      throw new HttpError(504, 'worker_timeout', 'no worker completed the request in time');
    throw new HttpError(502, code, cause.message);
  }
}

/** What the Temporal UI shows as an eval run's summary: agent, set, case count and mode, in one line. */
export interface EvalRunLabel {
  agent: string;
  set: string;
  cases: number;
}

/**
 * Starts a queued eval run's workflow with its static summary for operators; if it cannot start, the run is marked
 * failed and the caller gets a 503.
 */
export async function startEvalRun(deps: AppDeps, run: EvalRun, label: EvalRunLabel): Promise<void> {
  const summary = `${label.agent} · ${label.set} · ${label.cases} cases · ${run.mode}`;
  await startOnQueue<typeof evalRunWorkflow>(
    deps,
    'evalRunWorkflow',
    {
      workflowId: workflowIds.evalRun(run.id),
      workflowIdConflictPolicy: 'FAIL',
      args: [
        {
          runId: run.id,
          concurrency: deps.config.EVAL_CONCURRENCY,
          historyBudget: deps.config.EVAL_HISTORY_BUDGET,
          summary,
        },
      ],
      staticSummary: summary,
      staticDetails:
        `Eval run \`${run.id}\` of agent **${label.agent}**, eval set **${label.set}**: ${label.cases} cases, ` +
        `${run.mode} mode, ${run.run_selection} selection, concurrency ${deps.config.EVAL_CONCURRENCY}. ` +
        'Query `progress` for the counts; the HTTP API and the relay are the source for users.',
      typedSearchAttributes: [
        { key: WorkspaceIdKey, value: run.workspace_id },
        { key: AgentIdKey, value: run.agent_id },
        { key: EvalSetIdKey, value: run.eval_set_id },
        { key: EvalRunStatusKey, value: run.status },
      ],
    },
    {
      message: 'eval run not started',
      logFields: { run_id: run.id },
      runId: run.id,
      markFailed: () =>
        endEvalRun(deps.db, run.id, { status: 'failed', error: `the run could not be started: ${UNAVAILABLE}` }),
    },
  );
}

/**
 * Asks an eval run's workflow to cancel: the workflow stops its batches (their heartbeats deliver it), keeps the
 * results stored so far and records `cancelled` itself. A workflow that is gone or already closed (closed without
 * writing its row, which the sweep would otherwise end later) leaves the run to be ended `cancelled` here; a row
 * that already ended is left alone. Temporal unreachable: 503.
 */
export async function cancelEvalRunWorkflow(deps: AppDeps, runId: string): Promise<void> {
  const workflow = deps.temporal.workflow.getHandle(workflowIds.evalRun(runId));
  try {
    await workflow.cancel();
    // Temporal accepts a cancel of a closed workflow and does nothing: only a running one will write the row.
    if ((await workflow.describe()).status.name === 'RUNNING') return;
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) {
      deps.logger.error({ ...logError(error), run_id: runId }, 'eval run not cancelled');
      throw new HttpError(503, 'unavailable', UNAVAILABLE);
    }
  }
  await endEvalRun(deps.db, runId, { stopped: CANCELLED });
}

/** Starts a flow run's workflow; if it cannot start, the run is marked failed and the caller gets a 503. */
export async function startFlowRun(deps: AppDeps, run: FlowRun): Promise<void> {
  await startOnQueue<typeof flowRunWorkflow>(
    deps,
    'flowRunWorkflow',
    {
      workflowId: workflowIds.flowRun(run.id),
      workflowIdConflictPolicy: 'FAIL',
      args: [{ workspaceId: run.workspace_id, flowRunId: run.id }],
      typedSearchAttributes: [{ key: WorkspaceIdKey, value: run.workspace_id }],
    },
    {
      message: 'flow run not started',
      logFields: { flow_run_id: run.id },
      runId: run.id,
      markFailed: () => endFlowRun(deps.db, run.id, { status: 'failed', error: 'the run could not be started' }),
    },
  );
}

type ServerWorkflow = typeof mcpServerTestWorkflow | typeof mcpToolSyncWorkflow | typeof mcpToolCallWorkflow;

// A short workflow acting on one server, on a worker: with no worker polling the queue it answers 503 at once.
async function startServerWorkflow(
  deps: AppDeps,
  workflowType: string,
  workflowId: string,
  policy: 'USE_EXISTING' | 'FAIL',
  input: Parameters<ServerWorkflow>[0],
): Promise<void> {
  await requirePollingWorker(deps);
  await startOnQueue<ServerWorkflow>(deps, workflowType, {
    workflowId,
    workflowIdConflictPolicy: policy,
    workflowExecutionTimeout: '5 minutes',
    args: [input] as Parameters<ServerWorkflow>,
    typedSearchAttributes: [
      { key: WorkspaceIdKey, value: input.workspaceId },
      { key: McpServerIdKey, value: input.serverId },
    ],
  });
}

const MCP_ACTIONS = {
  test: { workflowType: 'mcpServerTestWorkflow', id: workflowIds.mcpServerTest, failureCode: 'mcp_test_failed' },
  sync: { workflowType: 'mcpToolSyncWorkflow', id: workflowIds.mcpToolSync, failureCode: 'mcp_sync_failed' },
} as const;

/** What each MCP server action answers. */
export interface McpActionResults {
  test: Awaited<ReturnType<typeof mcpServerTestWorkflow>>;
  sync: Awaited<ReturnType<typeof mcpToolSyncWorkflow>>;
}

/**
 * Runs an MCP server action on a worker (the api never dials a server) and waits for its answer. Concurrent calls for
 * one server share a single run (USE_EXISTING). With no worker polling the queue it answers 503 at once.
 */
export async function runMcpAction<A extends keyof McpActionResults>(
  deps: AppDeps,
  action: A,
  ref: { workspaceId: string; serverId: string },
): Promise<McpActionResults[A]> {
  const { workflowType, id, failureCode } = MCP_ACTIONS[action];
  const workflowId = id(ref.serverId);
  await startServerWorkflow(deps, workflowType, workflowId, 'USE_EXISTING', ref);
  return (await awaitResult(deps, workflowId, failureCode)) as McpActionResults[A];
}

type McpToolCall = Parameters<typeof mcpToolCallWorkflow>[0];

/** Calls one tool of a server on a worker (the playground; a fresh workflow per call) and waits for its answer. */
export async function runMcpToolCall(
  deps: AppDeps,
  call: McpToolCall,
): Promise<Awaited<ReturnType<typeof mcpToolCallWorkflow>>> {
  const workflowId = workflowIds.mcpToolCall(call.serverId, crypto.randomUUID());
  await startServerWorkflow(deps, 'mcpToolCallWorkflow', workflowId, 'FAIL', call);
  return awaitResult<typeof mcpToolCallWorkflow>(deps, workflowId, 'mcp_call_failed');
}

type ProductionRun = Extract<Parameters<typeof agentRunWorkflow>[0], { mode: 'production' }>;

/** Runs an agent's published version on a message in production (real effects) and waits for the run's result. */
export async function runAgent(
  deps: AppDeps,
  input: Omit<ProductionRun, 'mode'>,
): Promise<Awaited<ReturnType<typeof agentRunWorkflow>>> {
  const workflowId = workflowIds.agentRun(crypto.randomUUID());
  await startOnQueue<typeof agentRunWorkflow>(deps, 'agentRunWorkflow', {
    workflowId,
    workflowIdConflictPolicy: 'FAIL',
    args: [{ mode: 'production', ...input }],
    typedSearchAttributes: [
      { key: WorkspaceIdKey, value: input.workspaceId },
      { key: AgentIdKey, value: input.agentId },
    ],
  });
  return awaitResult<typeof agentRunWorkflow>(deps, workflowId, 'agent_run_failed');
}

/**
 * Deletes a workspace: marks it deleted (no token can act in it from now on), then starts the purge of its secrets and
 * rows (`workspace-deletion:<id>`; a second request while it runs shares it). If Temporal cannot take the workflow the
 * mark is undone, so the workspace is whole again and the caller (503) can simply retry.
 */
export async function startWorkspaceDeletion(deps: AppDeps, workspaceId: string): Promise<void> {
  await markWorkspaceDeleted(deps.db, workspaceId);
  try {
    await startOnQueue<typeof workspaceDeletionWorkflow>(deps, 'workspaceDeletionWorkflow', {
      workflowId: workflowIds.workspaceDeletion(workspaceId),
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [{ workspaceId }],
      staticSummary: `Deletion of workspace ${workspaceId}`,
      typedSearchAttributes: [{ key: WorkspaceIdKey, value: workspaceId }],
    });
  } catch (error) {
    await unmarkWorkspaceDeleted(deps.db, workspaceId);
    throw error;
  }
}
