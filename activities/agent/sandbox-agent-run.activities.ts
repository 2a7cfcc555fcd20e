import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import { runAgentTurns, type AgentTurnPlan } from '../../domain/agent/agent-turn-loop';
import type { ActivityDeps } from '../platform/activity-deps';
import { createAgentRuntimeActivities, type AgentRunResult } from './agent-runtime.activities';
import { createAgentToolCallActivities } from './agent-tool-call.activities';
import { createUserSimulatorActivities } from './user-simulator.activities';
import type { Judge } from '../judge/judge.service';

// Between two steps: says the run is alive, and stops it when its workflow was cancelled (heard through heartbeats).
function checkpoint(): void {
  const context = Context.current();
  context.heartbeat();
  if (context.cancellationSignal.aborted) throw new CancelledFailure('the sandbox agent run was cancelled');
}

/**
 * A sandbox agent run (a live eval case) in one activity: the same steps the workflow would schedule one by one (model
 * steps, simulated or replayed tool calls, turn starts, then the recorded conversation), called in process. Each
 * stores its outcome once and answers a stored one as it was, so a retried attempt resumes after the last stored step
 * and never asks the model twice for one step.
 */
export function createSandboxAgentRunActivities(deps: ActivityDeps, judge: Judge) {
  const runtime = createAgentRuntimeActivities(deps);
  const { simulateUserTurn } = createUserSimulatorActivities(deps, judge);
  const { runAgentToolCall } = createAgentToolCallActivities(deps);

  return {
    /** Runs a prepared sandbox run's turns to the end and records its conversation. */
    async runSandboxAgent(input: AgentTurnPlan & { runId: string }): Promise<AgentRunResult> {
      const { runId } = input;
      const stopReason = await runAgentTurns(
        {
          modelStep: (step) => (checkpoint(), runtime.runAgentModelStep({ runId, step })),
          toolCall: (step, index) => (checkpoint(), runAgentToolCall({ runId, step, index })),
          startTurn: (turn) => (checkpoint(), runtime.startAgentTurn({ runId, turn })),
          simulateTurn: (turn) => (checkpoint(), simulateUserTurn({ runId, turn })),
        },
        input,
      );
      return runtime.finishAgentRun({ runId, stopReason });
    },
  };
}
