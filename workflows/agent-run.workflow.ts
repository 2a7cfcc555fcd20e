import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import { RUN_FAILURE } from '../domain/eval/run-failures';
import type { AgentRunRequest, AgentRunResult } from '../activities/agent/agent-runtime.activities';
import type { AgentStopReason } from '../domain/agent/agent-messages';
import { AGENT_TOOL_CALL_ACTIVITY, BOOKKEEPING_ACTIVITY, MODEL_STEP_ACTIVITY } from './activity-options';
import type { Activities } from '../activities';

const setup = proxyActivities<Activities>(BOOKKEEPING_ACTIVITY);
const modelSteps = proxyActivities<Activities>(MODEL_STEP_ACTIVITY);
const toolCalls = proxyActivities<Activities>(AGENT_TOOL_CALL_ACTIVITY);

function failureOf(error: unknown): ApplicationFailure {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure)
    return ApplicationFailure.nonRetryable(cause.message, cause.type ?? RUN_FAILURE.agentRunFailed);
  return ApplicationFailure.nonRetryable(
    cause instanceof Error ? cause.message : String(cause),
    RUN_FAILURE.agentRunFailed,
  );
}

// One turn's model steps (numbered on from `step` across the run), up to the agent's step limit: how the turn ended
// and the next step's number.
async function runTurnSteps(
  runId: string,
  step: number,
  maxSteps: number,
  blocked: boolean,
): Promise<{ stopReason: AgentStopReason; step: number }> {
  if (blocked) return { stopReason: 'input_blocked', step };
  for (const last = step + maxSteps; step < last; step++) {
    const outcome = await modelSteps.runAgentModelStep({ runId, step });
    if (outcome.kind === 'final') return { stopReason: 'completed', step: step + 1 };
    // Sequential on purpose: the model may chain effects, and the step's calls are capped by the activity.
    for (let index = 0; index < outcome.toolCalls; index++) await toolCalls.runAgentToolCall({ runId, step, index });
  }
  return { stopReason: 'step_limit', step };
}

/**
 * Runs an agent version on one message (production: the published one; a live eval case: the one its run pinned, on
 * each of the case's turns in order, the session carried from turn to turn; a scenario case: on each turn its
 * simulated user writes, up to the set's `max_turns`): one activity per model step and one per
 * tool call, up to the agent's step limit per turn, then records the conversation. A turn that ends at the step limit
 * ends the run. The workflow id keys the run, so a retried activity resumes it; history holds ids and counts only.
 */
export async function agentRunWorkflow(input: AgentRunRequest): Promise<AgentRunResult> {
  let runId: string | undefined;
  try {
    const prepared = await setup.prepareAgentRun({ ...input, key: workflowInfo().workflowId });
    runId = prepared.runId;
    let turn = await runTurnSteps(runId, 0, prepared.maxSteps, prepared.blocked);
    // History stays bounded whatever the turns: every step adds a message and every call a recorded call, so a run
    // makes at most messagesPerConversation steps and toolCallsPerConversation calls, plus one start per turn.
    for (let next = 1; next < (prepared.turns ?? 1) && turn.stopReason !== 'step_limit'; next++) {
      // A simulated user writes the next turn from the transcript so far, or ends the conversation.
      if (prepared.simulated && (await modelSteps.simulateUserTurn({ runId, turn: next })).stop) break;
      const started = await setup.startAgentTurn({ runId, turn: next });
      if (started.full) {
        turn = { stopReason: 'message_limit', step: turn.step };
        break;
      }
      turn = await runTurnSteps(runId, turn.step, prepared.maxSteps, started.blocked);
    }
    return await setup.finishAgentRun({ runId, stopReason: turn.stopReason });
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
