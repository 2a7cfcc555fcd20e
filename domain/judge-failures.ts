/** Failure types of eval-run and agent activities, shared by the activities that raise them and the workflow that reads them. */
export const EVAL_FAILURE = {
  providerNotConnected: 'ProviderNotConnected',
  providerAuthRejected: 'ProviderAuthRejected',
  modelNotFound: 'ModelNotFound',
  judgeUnresolvable: 'JudgeUnresolvable',
  egressBlocked: 'EgressBlocked',
  runNotFound: 'EvalRunNotFound',
  providerRequestRejected: 'ProviderRequestRejected',
  providerUnavailable: 'ProviderUnavailable',
  agentNotPublished: 'AgentNotPublished',
  agentUnresolvable: 'AgentUnresolvable',
  workspaceSlotsBusy: 'WorkspaceSlotsBusy',
} as const;

/** Failures that no other case could escape either, so the whole run fails with the message instead. */
export const RUN_FATAL_FAILURES: readonly string[] = [
  EVAL_FAILURE.providerNotConnected,
  EVAL_FAILURE.providerAuthRejected,
  EVAL_FAILURE.modelNotFound,
  EVAL_FAILURE.judgeUnresolvable,
  EVAL_FAILURE.egressBlocked,
  EVAL_FAILURE.runNotFound,
  EVAL_FAILURE.agentNotPublished,
  EVAL_FAILURE.agentUnresolvable,
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
