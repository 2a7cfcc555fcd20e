import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { updateAgentRun } from '../../db/agent-run.repository';
import { findScoringRun } from '../../db/eval-run.repository';
import type { AgentRun, AgentRunSimulation } from '../../db/tables/agent-run.table';
import type { JudgeUsage } from '../../db/tables/eval-run.table';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import {
  parseSimulatorReply,
  simulatorPrompt,
  type SimulatedExchange,
  type SimulatedReply,
} from '../../domain/eval/simulator-prompt';
import { judgeCallBound } from '../judge/judge-call-budget';
import type { Judge } from '../judge/judge.service';
import { withHeartbeat } from '../platform/heartbeat';
import type { ActivityDeps } from '../platform/activity-deps';
import { requireAgentRun } from './agent-run-target';

// The exchanges before turn `turn`: each started turn's message and reply (the last one's reply is the run's answer).
function exchangesBefore(run: AgentRun, turn: number): SimulatedExchange[] {
  return run.turns.slice(0, turn).map((entry, index) => ({
    user: entry.user_message,
    agent: (index === turn - 1 ? run.final_response : entry.reply) ?? '',
  }));
}

const addUsage = (total: JudgeUsage, more: JudgeUsage): JudgeUsage => ({
  calls: total.calls + more.calls,
  prompt_tokens: total.prompt_tokens + more.prompt_tokens,
  completion_tokens: total.completion_tokens + more.completion_tokens,
  total_tokens: total.total_tokens + more.total_tokens,
});

// Whether turn `turn` was already decided: written (planned), or the stop signal came instead.
function decided(run: AgentRun, simulation: AgentRunSimulation, turn: number): { stop: boolean } | null {
  if (run.turns[turn]) return { stop: false };
  if (simulation.stopped_at !== undefined && simulation.stopped_at <= turn) return { stop: true };
  return null;
}

/** The simulated user: writes a scenario run's next user turn (or ends the conversation), a judge-like call. */
export function createUserSimulatorActivities(deps: ActivityDeps, judge: Judge) {
  // Asks the simulator through the run's judge provider (the simulation's model), the case's judge-call budget, the
  // verdict cache (keyed by the prompt, the endpoint, the model and the repeat's seed) and the key's AIMD limiter.
  async function ask(run: AgentRun, simulation: AgentRunSimulation, turn: number) {
    const evalRunId = run.eval_run_id;
    const scoring = evalRunId ? await findScoringRun(deps.db, evalRunId) : undefined;
    if (!scoring?.judge || !evalRunId || !run.eval_case_id)
      throw ApplicationFailure.nonRetryable('the simulated run has no eval run judge', RUN_FAILURE.judgeUnresolvable);
    const judged = {
      runId: evalRunId,
      caseId: run.eval_case_id,
      bound: judgeCallBound(scoring.repeats, simulation.max_turns),
    };
    const simulator = { ...scoring, judge: { ...scoring.judge, model: simulation.model } };
    const session = await judge.open(simulator, judged, Context.current().cancellationSignal);
    const messages = simulatorPrompt(simulation.scenario, exchangesBefore(run, turn), simulation.stop_signal);
    const reply = await withHeartbeat(() =>
      session.reply(messages, simulation.seed, (content) => parseSimulatorReply(content, simulation.stop_signal)),
    );
    return { reply, usage: session.usage(), cachedHit: session.cache().hits > 0 };
  }

  return {
    /**
     * Before turn `turn` of a simulated run: asks the simulated user once for its next message from the plan, the
     * persona and the transcript so far, and plans the turn with it; `stop` when it wrote the stop signal.
     */
    async simulateUserTurn(input: { runId: string; turn: number }): Promise<{ stop: boolean }> {
      const run = await requireAgentRun(deps, input.runId);
      const simulation = run.simulation;
      if (!simulation)
        throw ApplicationFailure.nonRetryable('the run has no simulated user', RUN_FAILURE.agentRunFailed);
      const done = decided(run, simulation, input.turn);
      if (done) return done;
      const { reply, usage, cachedHit } = await ask(run, simulation, input.turn);
      return updateAgentRun(deps.db, run.id, (current) => {
        const settled = decided(current, simulation, input.turn);
        if (settled) return { value: settled };
        const next = {
          ...simulation,
          usage: addUsage(simulation.usage, usage),
          cached_turns: simulation.cached_turns + (cachedHit ? 1 : 0),
        };
        if (reply === null) return { patch: { simulation: next }, value: null };
        return reply.stop
          ? { patch: { simulation: { ...next, stopped_at: input.turn } }, value: { stop: true } }
          : {
              patch: { simulation: next, turns: [...current.turns, { user_message: messageOf(reply) }] },
              value: { stop: false },
            };
      }).then((value) => {
        if (value) return value;
        throw ApplicationFailure.nonRetryable(
          `the simulated user gave no usable reply (empty, or over simulatorReplyChars) before turn ${input.turn}`,
          RUN_FAILURE.agentRunFailed,
        );
      });
    },
  };
}

const messageOf = (reply: SimulatedReply): string => (reply.stop ? '' : reply.message);
