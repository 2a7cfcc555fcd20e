import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { createAgentRun, findAgentRunByKey, updateAgentRun } from '../../db/agent-run.repository';
import type { AgentRun } from '../../db/tables/agent-run.table';
import type { AgentMessage, AgentStopReason } from '../../domain/agent/agent-messages';
import { runtimeSettings, type AgentRuntimeSettings } from '../../domain/agent/agent-settings';
import { applyGuardrails } from '../../domain/guardrails/apply-guardrails';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { CANCELLED } from '../../domain/eval/run-end';
import { createProviderClient, type ToolChatReply } from '../../lib/outbound/llm/provider-client';
import { endAgentRun } from '../../lib/run-ends';
import { connectAgentProvider, loadRunnableAgent, resolveRunnableAgent } from './agent-model';
import { requireAgentRun, sandboxTarget, type RunTarget } from './agent-run-target';
import { recordModelReply, stepResultOf, type AgentStepResult } from './agent-step';
import { conversationOf } from './agent-conversation';
import { plannedTurns, startTurn, turnMessages, type TurnStart } from './agent-turns';
import { loadAgentTools } from './agent-toolset';
import { withHeartbeat } from '../platform/heartbeat';
import type { ActivityDeps } from '../platform/activity-deps';
import { toActivityFailure } from '../platform/provider-connection';

/** What to run: a production message of an agent, or a case of a live eval run in the sandbox. */
export type AgentRunRequest =
  | {
      mode: 'production';
      workspaceId: string;
      agentId: string;
      sessionInput: { message: string } & Record<string, unknown>;
    }
  | { mode: 'sandbox'; evalRunId: string; evalCaseId: string; repeat?: number };

/** A prepared run: its id, its step limit (per turn), whether an input guardrail already answered its first turn, and
 * how many turns it runs (absent in histories from before turns: one). */
export interface PreparedAgentRun {
  runId: string;
  maxSteps: number;
  blocked: boolean;
  turns?: number;
  /** A simulated user plays the run: before each turn after the first, `simulateUserTurn` writes (or ends) it. */
  simulated?: boolean;
}

/** How a run ended: the recorded conversation. */
export interface AgentRunResult {
  agentRunId: string;
  conversationId: string;
  stopReason: AgentStopReason;
}

// A model step may legitimately take minutes (long generations, slow providers); each attempt is bounded here.
const MODEL_CALL_TIMEOUT_MS = 10 * 60_000;
const MODEL_CALL_MAX_RETRIES = 2;

const prepared = (run: AgentRun): PreparedAgentRun => ({
  runId: run.id,
  maxSteps: runtimeSettings(run.settings).maxSteps,
  blocked: run.steps.length === 0 && run.final_response !== null,
  turns: run.simulation ? run.simulation.max_turns : Math.max(1, run.turns.length),
  ...(run.simulation ? { simulated: true } : {}),
});

function targetOf(deps: ActivityDeps, request: AgentRunRequest): Promise<RunTarget> {
  return request.mode === 'production'
    ? Promise.resolve({
        ...request,
        userMessages: [request.sessionInput.message],
        replay: [],
        evalRunId: null,
        evalCaseId: null,
        mocks: null,
      })
    : sandboxTarget(deps, request);
}

// One model call with the run's messages and tools, heartbeating while it waits.
async function askModel(deps: ActivityDeps, run: AgentRun, settings: AgentRuntimeSettings): Promise<ToolChatReply> {
  const { baseUrl, apiKey } = await connectAgentProvider(deps, run.workspace_id, run.provider, run.model);
  const client = createProviderClient({
    provider: run.provider,
    baseUrl,
    apiKey,
    fetch: deps.egress.fetch,
    timeoutMs: MODEL_CALL_TIMEOUT_MS,
    maxRetries: MODEL_CALL_MAX_RETRIES,
  });
  const signal = Context.current().cancellationSignal;
  try {
    return await withHeartbeat(() =>
      client.chatTools({
        model: run.model,
        messages: run.messages,
        tools: run.tools,
        temperature: settings.temperature,
        signal,
      }),
    );
  } catch (error) {
    throw toActivityFailure(error);
  }
}

/** Agent runtime activities: prepare a run, one model step, finish or fail it (tool calls live in their own group). */
export function createAgentRuntimeActivities(deps: ActivityDeps) {
  const guard = deps.egress;

  return {
    /**
     * Creates the run once per workflow: its version (a sandbox case the one its eval run pinned and checked at
     * preflight, a production run the published one, checked now), tools, input guardrails (a block answers at once).
     */
    async prepareAgentRun(input: AgentRunRequest & { key: string }): Promise<PreparedAgentRun> {
      const existing = await findAgentRunByKey(deps.db, input.key);
      if (existing) return prepared(existing);
      const target = await targetOf(deps, input);
      const { agent, version, provider, settings } =
        target.pinnedVersion === undefined
          ? await resolveRunnableAgent(deps, guard, target.workspaceId, target.agentId)
          : await loadRunnableAgent(deps, target.workspaceId, target.agentId, target.pinnedVersion);
      const tools = await loadAgentTools(deps.db, target.workspaceId, agent.id, settings.builtinTools, {
        candidateToolId: target.candidateToolId,
      });
      const guarded = applyGuardrails(target.sessionInput.message, 'input', settings.guardrails);
      const instructions: AgentMessage[] = version.instructions.trim()
        ? [{ role: 'system', content: version.instructions }]
        : [];
      const messages = [...instructions, ...turnMessages(target.sessionInput.message, guarded, settings.safeReply)];
      const run = await createAgentRun(deps.db, {
        key: input.key,
        workspace_id: target.workspaceId,
        agent_id: agent.id,
        agent_version: version.version,
        model: version.model,
        provider,
        mode: target.mode,
        eval_run_id: target.evalRunId,
        eval_case_id: target.evalCaseId,
        session_input: target.sessionInput,
        settings: version.settings,
        tools,
        replay_calls: target.replay,
        messages,
        guardrail_events: guarded.events,
        final_response: guarded.blocked ? settings.safeReply : null,
        turns: plannedTurns(target.userMessages, target.replayTurns, guarded.blocked),
        tool_mocks: target.mocks,
        simulation: target.simulation ?? null,
      });
      deps.logger.info(
        { agent_run_id: run.id, agent_id: agent.id, mode: run.mode, tools: tools.length },
        'agent run prepared',
      );
      return prepared(run);
    },

    /** Asks the model once with the run's messages and tools, and records its answer once (heartbeats while waiting). */
    async runAgentModelStep(input: { runId: string; step: number }): Promise<AgentStepResult> {
      const run = await requireAgentRun(deps, input.runId);
      if (run.steps[input.step]) return stepResultOf(run, input.step);
      if (run.steps.length !== input.step)
        throw ApplicationFailure.nonRetryable(
          `step ${input.step} asked after step ${run.steps.length - 1}`,
          RUN_FAILURE.agentStepOutOfOrder,
        );
      const settings = runtimeSettings(run.settings);
      const reply = await askModel(deps, run, settings);
      return updateAgentRun(deps.db, run.id, (current) =>
        current.steps[input.step]
          ? { value: stepResultOf(current, input.step) }
          : recordModelReply(current, input.step, reply, settings),
      );
    },

    /** Starts the run's next turn once: its user message after the whole session so far (input guardrails first). */
    async startAgentTurn(input: { runId: string; turn: number }): Promise<TurnStart> {
      const run = await requireAgentRun(deps, input.runId);
      const settings = runtimeSettings(run.settings);
      return updateAgentRun(deps.db, run.id, (current) => startTurn(current, input.turn, settings));
    },

    /** Records the run's conversation once and answers its id. */
    async finishAgentRun(input: { runId: string; stopReason: AgentStopReason }): Promise<AgentRunResult> {
      const conversationId = await endAgentRun(deps.db, input.runId, {
        status: 'completed',
        conversation: (run) => conversationOf(run, input.stopReason, new Date()),
      });
      deps.logger.info(
        { agent_run_id: input.runId, conversation_id: conversationId, stop_reason: input.stopReason },
        'agent run finished',
      );
      return { agentRunId: input.runId, conversationId, stopReason: input.stopReason };
    },

    /** Marks the run failed with the message the workflow fails with. */
    async failAgentRun(input: { runId: string; error: string }): Promise<void> {
      await endAgentRun(deps.db, input.runId, { status: 'failed', error: input.error });
    },

    /** Marks the run cancelled (its workflow was cancelled). */
    async cancelAgentRun(input: { runId: string }): Promise<void> {
      await endAgentRun(deps.db, input.runId, { stopped: CANCELLED });
    },
  };
}
