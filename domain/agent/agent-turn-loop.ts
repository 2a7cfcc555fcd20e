import type { AgentStopReason } from './agent-messages';

/** What the loop learns from a model step: how many tool calls to run next, or that the answer is final. */
export type AgentStepResult = { kind: 'tools'; toolCalls: number } | { kind: 'final' };

/** How a turn started: whether an input guardrail answered it, or that the conversation had no room left for it. */
export type TurnStart = { blocked: boolean; full?: false } | { blocked: false; full: true };

/** What a run's turns are made of: one model step, one tool call of a step, the start of a turn after the first. */
export interface AgentRunSteps {
  modelStep(step: number): Promise<AgentStepResult>;
  toolCall(step: number, index: number): Promise<unknown>;
  startTurn(turn: number): Promise<TurnStart>;
  /** A simulated run: the simulated user writes turn `turn` before it starts, or ends the conversation (`stop`). */
  simulateTurn(turn: number): Promise<{ stop: boolean }>;
}

/** A prepared run as the loop needs it: its step limit per turn, its turns, whether its first turn was blocked. */
export interface AgentTurnPlan {
  maxSteps: number;
  blocked: boolean;
  turns?: number;
  /** A simulated user writes each turn after the first (`simulateTurn`); `turns` is then its turn cap. */
  simulated?: boolean;
}

// One turn's model steps (numbered on from `step` across the run), up to the agent's step limit: how the turn ended
// and the next step's number.
async function runTurnSteps(
  steps: AgentRunSteps,
  step: number,
  maxSteps: number,
  blocked: boolean,
): Promise<{ stopReason: AgentStopReason; step: number }> {
  if (blocked) return { stopReason: 'input_blocked', step };
  for (const last = step + maxSteps; step < last; step++) {
    const outcome = await steps.modelStep(step);
    if (outcome.kind === 'final') return { stopReason: 'completed', step: step + 1 };
    // Sequential on purpose: the model may chain effects, and the step's calls are capped by the activity.
    for (let index = 0; index < outcome.toolCalls; index++) await steps.toolCall(step, index);
  }
  return { stopReason: 'step_limit', step };
}

/**
 * Runs a prepared run's turns in order, each up to the step limit; a turn that ends at the step limit ends the run,
 * and a conversation without room for the next turn ends at the message limit. Deterministic given the steps' answers,
 * so the same loop serves the workflow (one activity a step) and the sandbox's one activity (steps called in process).
 */
export async function runAgentTurns(steps: AgentRunSteps, plan: AgentTurnPlan): Promise<AgentStopReason> {
  let turn = await runTurnSteps(steps, 0, plan.maxSteps, plan.blocked);
  // History stays bounded whatever the turns: every step adds a message and every call a recorded call, so a run
  // makes at most messagesPerConversation steps and toolCallsPerConversation calls, plus one start per turn.
  for (let next = 1; next < (plan.turns ?? 1) && turn.stopReason !== 'step_limit'; next++) {
    if (plan.simulated && (await steps.simulateTurn(next)).stop) break;
    const started = await steps.startTurn(next);
    if (started.full) return 'message_limit';
    turn = await runTurnSteps(steps, turn.step, plan.maxSteps, started.blocked);
  }
  return turn.stopReason;
}
