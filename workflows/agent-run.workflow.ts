import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  patched,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import { RUN_FAILURE } from '../domain/eval/run-failures';
import type { AgentRunRequest, AgentRunResult } from '../activities/agent/agent-runtime.activities';
import { runAgentTurns, type AgentRunSteps } from '../domain/agent/agent-turn-loop';
import {
  AGENT_TOOL_CALL_ACTIVITY,
  BOOKKEEPING_ACTIVITY,
  MODEL_STEP_ACTIVITY,
  SANDBOX_AGENT_RUN_ACTIVITY,
} from './activity-options';
import type { Activities } from '../activities';

const setup = proxyActivities<Activities>(BOOKKEEPING_ACTIVITY);
const modelSteps = proxyActivities<Activities>(MODEL_STEP_ACTIVITY);
const toolCalls = proxyActivities<Activities>(AGENT_TOOL_CALL_ACTIVITY);
const sandboxRuns = proxyActivities<Activities>(SANDBOX_AGENT_RUN_ACTIVITY);

/** The patch under which a sandbox run's turns are one activity (runs started before it: one activity a step). */
export const SANDBOX_RUN_IN_ONE_ACTIVITY = 'sandbox-run-in-one-activity';

// One activity per model step, per tool call and per turn start.
const stepActivities = (runId: string): AgentRunSteps => ({
  modelStep: (step) => modelSteps.runAgentModelStep({ runId, step }),
  toolCall: (step, index) => toolCalls.runAgentToolCall({ runId, step, index }),
  startTurn: (turn) => setup.startAgentTurn({ runId, turn }),
  simulateTurn: (turn) => modelSteps.simulateUserTurn({ runId, turn }),
});

function failureOf(error: unknown): ApplicationFailure {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure)
    return ApplicationFailure.nonRetryable(cause.message, cause.type ?? RUN_FAILURE.agentRunFailed);
  return ApplicationFailure.nonRetryable(
    cause instanceof Error ? cause.message : String(cause),
    RUN_FAILURE.agentRunFailed,
  );
}

/**
 * Runs an agent version on one message (production: the published one; a live eval case: the one its run pinned, on
 * each of the case's turns in order, the session carried from turn to turn), keyed by `key` so a retried activity
 * resumes it: production makes one activity per model step and one per tool call, the sandbox one activity for the
 * whole run, up to the agent's step limit per turn, then records the conversation. A turn that ends at the step limit
 * ends the run; a cancelled or failed run still ends its row. History holds ids and counts only.
 */
async function runAgent(input: AgentRunRequest, key: string): Promise<AgentRunResult> {
  let runId: string | undefined;
  try {
    const prepared = await setup.prepareAgentRun({ ...input, key });
    runId = prepared.runId;
    // A sandbox run (a live eval case) runs its turns in one activity, the steps stored as they go, so a retried
    // attempt resumes where the last stopped: two activities a case instead of one per step and per call.
    if (input.mode === 'sandbox' && patched(SANDBOX_RUN_IN_ONE_ACTIVITY))
      return await sandboxRuns.runSandboxAgent({ ...prepared, runId });
    const stopReason = await runAgentTurns(stepActivities(runId), prepared);
    return await setup.finishAgentRun({ runId, stopReason });
  } catch (error) {
    if (isCancellation(error)) {
      // A cancelled run (its eval run was cancelled, or an operator cancelled it) still ends its row.
      const cancelled = runId;
      if (cancelled !== undefined)
        await CancellationScope.nonCancellable(() => setup.cancelAgentRun({ runId: cancelled }));
      throw error;
    }
    const failure = failureOf(error);
    if (runId !== undefined) await setup.failAgentRun({ runId, error: failure.message });
    throw failure;
  }
}

/** An agent run as a workflow of its own (production runs; live eval cases started before they ran in their eval run). */
export async function agentRunWorkflow(input: AgentRunRequest): Promise<AgentRunResult> {
  return runAgent(input, workflowInfo().workflowId);
}
