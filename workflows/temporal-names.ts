import { defineSearchAttributeKey } from '@temporalio/common';
import { mcpHealthScheduleId } from '../domain/mcp/mcp-health';
import { evalRunWorkflowId, flowRunWorkflowId } from '../domain/eval/run-workflow-ids';

/** Search attributes Assay sets on its workflows, so runs can be found in the Temporal Web UI. */
export const WorkspaceIdKey = defineSearchAttributeKey('WorkspaceId', 'KEYWORD');
export const AgentIdKey = defineSearchAttributeKey('AgentId', 'KEYWORD');
export const EvalSetIdKey = defineSearchAttributeKey('EvalSetId', 'KEYWORD');
export const EvalRunStatusKey = defineSearchAttributeKey('EvalRunStatus', 'KEYWORD');
export const McpServerIdKey = defineSearchAttributeKey('McpServerId', 'KEYWORD');

/** Every search attribute with its Temporal type, for registering them on a dev server or cluster. */
export const SEARCH_ATTRIBUTES: Record<string, 'Keyword'> = {
  WorkspaceId: 'Keyword',
  AgentId: 'Keyword',
  EvalSetId: 'Keyword',
  EvalRunStatus: 'Keyword',
  McpServerId: 'Keyword',
};

/** Workflow ids come from business keys. */
export const workflowIds = {
  ping: (id: string): string => `ping:${id}`,
  evalRun: evalRunWorkflowId,
  /** The sandbox agent run of one case of a live eval run (a child of the run's workflow). */
  evalCaseRun: (runId: string, caseId: string): string => `eval-run:${runId}:case:${caseId}`,
  /** The sandbox run of a later repeat (1, 2, …) of a live case; repeat 0 is `evalCaseRun`. */
  evalCaseRepeatRun: (runId: string, caseId: string, repeat: number): string =>
    repeat === 0 ? workflowIds.evalCaseRun(runId, caseId) : `eval-run:${runId}:case:${caseId}:repeat:${repeat}`,
  agentRun: (id: string): string => `agent-run:${id}`,
  mcpToolSync: (serverId: string): string => `mcp-tool-sync:${serverId}`,
  mcpServerTest: (serverId: string): string => `mcp-server-test:${serverId}`,
  /** One playground call of a server's tool (a fresh id per call). */
  mcpToolCall: (serverId: string, callId: string): string => `mcp-tool-call:${serverId}:${callId}`,
  /** A server's health-check schedule; the workflows it starts get this id plus a timestamp. */
  mcpHealth: mcpHealthScheduleId,
  flowRun: flowRunWorkflowId,
  workspaceDeletion: (workspaceId: string): string => `workspace-deletion:${workspaceId}`,
  /** The schedule of the sweep of unfinished runs, one per task queue (its workers share it). */
  runSweep: (taskQueue: string): string => `run-sweep:${taskQueue}`,
  /** The schedule of the audit trail's retention purge, one per task queue. */
  auditPurge: (taskQueue: string): string => `audit-purge:${taskQueue}`,
};
