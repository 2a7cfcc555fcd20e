import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  completeAgentRun,
  createAgentRun,
  failAgentRun,
  findAgentRun,
  findAgentRunByKey,
  settleAgentRun,
  updateAgentRun,
} from '../../db/agent-run.repository';
import { findConversation } from '../../db/conversation.repository';
import { findEvalCaseById } from '../../db/eval-case.repository';
import { findScoringRun } from '../../db/eval-run.repository';
import type { AgentRun, AgentRunMode } from '../../db/tables/agent-run.table';
import type { RecordedToolCall } from '../../db/tables/conversation.table';
import type { AgentMessage, AgentStopReason } from '../../domain/agent/agent-messages';
import { runtimeSettings } from '../../domain/agent/agent-settings';
import { applyGuardrails } from '../../domain/guardrails/apply-guardrails';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { overLimit, storedCaseProblem } from '../../domain/limit-checks';
import { createProviderClient } from '../../lib/llm/provider-client';
import { connectAgentProvider, loadRunnableAgent, pinLiveRunAgent, resolveRunnableAgent } from './agent-model';
import { recordModelReply, stepResultOf, type AgentStepResult } from './agent-step';
import { conversationOf } from './agent-conversation';
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
  | { mode: 'sandbox'; evalRunId: string; evalCaseId: string };

/** A prepared run: its id, its step limit, and whether an input guardrail already answered it. */
export interface PreparedAgentRun {
  runId: string;
  maxSteps: number;
  blocked: boolean;
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

interface RunTarget {
  workspaceId: string;
  agentId: string;
  mode: AgentRunMode;
  sessionInput: { message: string } & Record<string, unknown>;
  replay: RecordedToolCall[];
  evalRunId: string | null;
  evalCaseId: string | null;
  /** A sandbox case runs the version its eval run pinned; a production run, the published one. */
  pinnedVersion?: number;
}

const prepared = (run: AgentRun): PreparedAgentRun => ({
  runId: run.id,
  maxSteps: runtimeSettings(run.settings).maxSteps,
  blocked: run.steps.length === 0 && run.final_response !== null,
});

/** Agent runtime activities: prepare a run, one model step, finish or fail it (tool calls live in their own group). */
export function createAgentRuntimeActivities(deps: ActivityDeps) {
  const guard = deps.egress;

  async function requireRun(runId: string): Promise<AgentRun> {
    const run = await findAgentRun(deps.db, runId);
    if (!run)
      throw ApplicationFailure.nonRetryable(`agent run ${runId} no longer exists`, RUN_FAILURE.agentRunNotFound);
    return run;
  }

  // A sandbox case replays the calls recorded in its source conversation: the case's snapshot, else the conversation.
  async function targetOf(request: AgentRunRequest): Promise<RunTarget> {
    if (request.mode === 'production') {
      return { ...request, replay: [], evalRunId: null, evalCaseId: null };
    }
    const run = await findScoringRun(deps.db, request.evalRunId);
    if (!run)
      throw ApplicationFailure.nonRetryable(
        `eval run ${request.evalRunId} no longer exists`,
        RUN_FAILURE.evalRunNotFound,
      );
    const evalCase = await findEvalCaseById(deps.db, request.evalCaseId);
    if (!evalCase)
      throw ApplicationFailure.nonRetryable('the case was deleted before it was run', RUN_FAILURE.evalCaseNotFound);
    const caseProblem = storedCaseProblem(evalCase);
    if (caseProblem) throw ApplicationFailure.nonRetryable(caseProblem, RUN_FAILURE.limitExceeded);
    const source =
      !evalCase.snapshot && evalCase.source_run_id
        ? await findConversation(deps.db, run.agent_id, evalCase.source_run_id)
        : undefined;
    const replayProblem =
      source && overLimit('the source conversation tool_calls', source.tool_calls.length, 'toolCallsPerConversation');
    if (replayProblem) throw ApplicationFailure.nonRetryable(replayProblem, RUN_FAILURE.limitExceeded);
    // A run preflighted before runs pinned their agent pins it now, once, for all its cases.
    const pinned = run.agent ?? (await pinLiveRunAgent(deps, guard, run));
    return {
      workspaceId: run.workspace_id,
      agentId: run.agent_id,
      mode: 'sandbox',
      sessionInput: evalCase.session_input,
      replay: evalCase.snapshot?.tool_calls ?? source?.tool_calls ?? [],
      evalRunId: run.id,
      evalCaseId: evalCase.id,
      pinnedVersion: pinned.version,
    };
  }

  return {
    /**
     * Creates the run once per workflow: its version (a sandbox case the one its eval run pinned and checked at
     * preflight, a production run the published one, checked now), tools, input guardrails (a block answers at once).
     */
    async prepareAgentRun(input: AgentRunRequest & { key: string }): Promise<PreparedAgentRun> {
      const existing = await findAgentRunByKey(deps.db, input.key);
      if (existing) return prepared(existing);
      const target = await targetOf(input);
      const { agent, version, provider, settings } =
        target.pinnedVersion === undefined
          ? await resolveRunnableAgent(deps, guard, target.workspaceId, target.agentId)
          : await loadRunnableAgent(deps, target.workspaceId, target.agentId, target.pinnedVersion);
      const tools = await loadAgentTools(deps.db, target.workspaceId, agent.id, settings.builtinTools);
      const message = target.sessionInput.message;
      const guarded = applyGuardrails(message, 'input', settings.guardrails);
      const messages: AgentMessage[] = version.instructions.trim()
        ? [{ role: 'system', content: version.instructions }]
        : [];
      messages.push({ role: 'user', content: guarded.blocked ? message : guarded.text });
      if (guarded.blocked) messages.push({ role: 'assistant', content: settings.safeReply });
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
      });
      deps.logger.info(
        { agent_run_id: run.id, agent_id: agent.id, mode: run.mode, tools: tools.length },
        'agent run prepared',
      );
      return prepared(run);
    },

    /** Asks the model once with the run's messages and tools, and records its answer once (heartbeats while waiting). */
    async runAgentModelStep(input: { runId: string; step: number }): Promise<AgentStepResult> {
      const run = await requireRun(input.runId);
      if (run.steps[input.step]) return stepResultOf(run, input.step);
      if (run.steps.length !== input.step)
        throw ApplicationFailure.nonRetryable(
          `step ${input.step} asked after step ${run.steps.length - 1}`,
          RUN_FAILURE.agentStepOutOfOrder,
        );
      const settings = runtimeSettings(run.settings);
      const { baseUrl, apiKey } = await connectAgentProvider(deps, run.workspace_id, run.provider, run.model);
      const client = createProviderClient({
        provider: run.provider,
        baseUrl,
        apiKey,
        fetch: guard.fetch,
        timeoutMs: MODEL_CALL_TIMEOUT_MS,
        maxRetries: MODEL_CALL_MAX_RETRIES,
      });
      const signal = Context.current().cancellationSignal;
      let reply;
      try {
        reply = await withHeartbeat(() =>
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
      return updateAgentRun(deps.db, run.id, (current) =>
        current.steps[input.step]
          ? { value: stepResultOf(current, input.step) }
          : recordModelReply(current, input.step, reply, settings),
      );
    },

    /** Records the run's conversation once and answers its id. */
    async finishAgentRun(input: { runId: string; stopReason: AgentStopReason }): Promise<AgentRunResult> {
      const conversationId = await completeAgentRun(deps.db, input.runId, (run) =>
        conversationOf(run, input.stopReason, new Date()),
      );
      deps.logger.info(
        { agent_run_id: input.runId, conversation_id: conversationId, stop_reason: input.stopReason },
        'agent run finished',
      );
      return { agentRunId: input.runId, conversationId, stopReason: input.stopReason };
    },

    /** Marks the run failed with the message the workflow fails with. */
    async failAgentRun(input: { runId: string; error: string }): Promise<void> {
      await failAgentRun(deps.db, input.runId, input.error);
    },

    /** Marks the run cancelled (its workflow was cancelled). */
    async cancelAgentRun(input: { runId: string }): Promise<void> {
      await settleAgentRun(deps.db, { id: input.runId }, { status: 'cancelled', error: 'the run was cancelled' });
    },
  };
}

export type AgentRuntimeActivities = ReturnType<typeof createAgentRuntimeActivities>;
