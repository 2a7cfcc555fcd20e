/**
 * The type of every failure a run's activities and workflows raise (eval runs, agent runs, flow runs, MCP actions),
 * shared by the code that raises them and the workflows that read them: one place to look up what a type means.
 */
export const RUN_FAILURE = {
  // Providers (judge and agent model calls).
  providerNotConnected: 'ProviderNotConnected',
  providerAuthRejected: 'ProviderAuthRejected',
  modelNotFound: 'ModelNotFound',
  providerRequestRejected: 'ProviderRequestRejected',
  providerUnavailable: 'ProviderUnavailable',
  providerResponseTooLarge: 'ProviderResponseTooLarge',
  egressBlocked: 'EgressBlocked',
  // Eval runs.
  judgeUnresolvable: 'JudgeUnresolvable',
  evalRunNotFound: 'EvalRunNotFound',
  evalCaseNotFound: 'EvalCaseNotFound',
  workspaceSlotsBusy: 'WorkspaceSlotsBusy',
  // Agent runs (production, or a live eval case in the sandbox).
  agentNotPublished: 'AgentNotPublished',
  agentUnresolvable: 'AgentUnresolvable',
  agentRunNotFound: 'AgentRunNotFound',
  agentStepOutOfOrder: 'AgentStepOutOfOrder',
  agentToolCallNotFound: 'AgentToolCallNotFound',
  agentRunFailed: 'AgentRunFailed',
  // Flow runs.
  flowRunNotFound: 'FlowRunNotFound',
  flowNodeNotFound: 'FlowNodeNotFound',
  // MCP actions and the platform check.
  mcpToolSyncFailed: 'McpToolSyncFailed',
  pingFailed: 'PingFailure',
  // Workspace deletion: a purge never touches a workspace that is not marked deleted.
  workspaceNotDeleted: 'WorkspaceNotDeleted',
  // Any run: a stored row or an input over a bound of `domain/limits.ts`.
  limitExceeded: 'LimitExceeded',
} as const;

/** One failure type of `RUN_FAILURE`. */
export type RunFailureType = (typeof RUN_FAILURE)[keyof typeof RUN_FAILURE];

/** Failures that no other case could escape either, so the whole run fails with the message instead. */
export const RUN_FATAL_FAILURES: readonly string[] = [
  RUN_FAILURE.providerNotConnected,
  RUN_FAILURE.providerAuthRejected,
  RUN_FAILURE.modelNotFound,
  RUN_FAILURE.judgeUnresolvable,
  RUN_FAILURE.egressBlocked,
  RUN_FAILURE.evalRunNotFound,
  RUN_FAILURE.agentNotPublished,
  RUN_FAILURE.agentUnresolvable,
];

/** The message of a run that needs a provider integration the workspace has not connected (to judge, or to run the agent). */
export function providerNotConnectedMessage(provider: string, model: string, use: 'judge' | 'agent' = 'judge'): string {
  return (
    `the ${provider} integration is not connected in this workspace: connect the ${provider} integration ` +
    `(PUT /api/workspaces/current/integrations/${provider}) to ${use === 'judge' ? 'judge with' : 'run the agent on'} ${model}`
  );
}

/** The message of a run whose agent has never been published. */
export const AGENT_NOT_PUBLISHED =
  'the agent has no published version: publish it (POST /api/ai-agents/{agent}/publish) before running it';
