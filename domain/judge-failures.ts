/** Failure types of eval-run activities, shared by the activities that raise them and the workflow that reads them. */
export const EVAL_FAILURE = {
  providerNotConnected: 'ProviderNotConnected',
  providerAuthRejected: 'ProviderAuthRejected',
  judgeModelNotFound: 'JudgeModelNotFound',
  judgeUnresolvable: 'JudgeUnresolvable',
  egressBlocked: 'EgressBlocked',
  runNotFound: 'EvalRunNotFound',
  judgeRequestRejected: 'JudgeRequestRejected',
} as const;

/** Failures that no other case could escape either, so the whole run fails with the message instead. */
export const RUN_FATAL_FAILURES: readonly string[] = [
  EVAL_FAILURE.providerNotConnected,
  EVAL_FAILURE.providerAuthRejected,
  EVAL_FAILURE.judgeModelNotFound,
  EVAL_FAILURE.judgeUnresolvable,
  EVAL_FAILURE.egressBlocked,
  EVAL_FAILURE.runNotFound,
];

/** The message of a run that needs a provider integration the workspace has not connected. */
export function providerNotConnectedMessage(provider: string, model: string): string {
  return `the ${provider} integration is not connected in this workspace: connect the ${provider} integration ` +
    `(PUT /api/workspaces/current/integrations/${provider}) to judge with ${model}`;
}
