import { ApplicationFailure } from '@temporalio/common';
import { findAgentRun } from '../../db/agent-run.repository';
import { findConversation } from '../../db/conversation.repository';
import { findEvalCaseById } from '../../db/eval-case.repository';
import { findSetToolSettings } from '../../db/eval-set.repository';
import { findScoringRun, type ScoringRun } from '../../db/eval-run.repository';
import type { AgentRun, AgentRunMode, AgentRunSimulation } from '../../db/tables/agent-run.table';
import { findEvalSet } from '../../db/eval-set.repository';
import { resolveSimulatorSettings } from '../../domain/eval/simulator-settings';
import type { RecordedToolCall } from '../../db/tables/conversation.table';
import type { EvalCase } from '../../db/tables/eval-set.table';
import { caseTurns } from '../../domain/eval/case-turns';
import { DEFAULT_MOCK_POLICY, runMocks, type RunMocks } from '../../domain/eval/tool-mocks';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { overLimit, storedCaseProblem } from '../../domain/limit-checks';
import { pinLiveRunAgent } from './agent-model';
import type { ActivityDeps } from '../platform/activity-deps';

/** What an agent run runs: whose agent, in which mode, on which input, replaying which recorded calls. */
export interface RunTarget {
  workspaceId: string;
  agentId: string;
  mode: AgentRunMode;
  sessionInput: { message: string } & Record<string, unknown>;
  /** The user's message of each turn, in order (a production run: the one message). */
  userMessages: string[];
  replay: RecordedToolCall[];
  /** The `[from, to)` slice of `replay` each turn may replay, when the recording had those turns; absent: any. */
  replayTurns?: Array<[number, number]>;
  evalRunId: string | null;
  evalCaseId: string | null;
  /** A sandbox case runs the version its eval run pinned; a production run, the published one. */
  pinnedVersion?: number;
  /** A sandbox case's tool mocks (its own, then its set's) and policy; null: none. */
  mocks: RunMocks | null;
  /** A scenario case: how its simulated user plays (its first message is the starting prompt, verbatim). */
  simulation?: AgentRunSimulation;
  /** Approve with evaluation: the quarantined tool a sandbox case is offered with its candidate definition. */
  candidateToolId?: string;
}

/** The agent run, or a non-retryable failure when it no longer exists. */
export async function requireAgentRun(deps: ActivityDeps, runId: string): Promise<AgentRun> {
  const run = await findAgentRun(deps.db, runId);
  if (!run) throw ApplicationFailure.nonRetryable(`agent run ${runId} no longer exists`, RUN_FAILURE.agentRunNotFound);
  return run;
}

async function requireScoringRun(deps: ActivityDeps, evalRunId: string): Promise<ScoringRun> {
  const run = await findScoringRun(deps.db, evalRunId);
  if (!run)
    throw ApplicationFailure.nonRetryable(`eval run ${evalRunId} no longer exists`, RUN_FAILURE.evalRunNotFound);
  return run;
}

async function requireRunnableCase(deps: ActivityDeps, evalCaseId: string): Promise<EvalCase> {
  const evalCase = await findEvalCaseById(deps.db, evalCaseId);
  if (!evalCase)
    throw ApplicationFailure.nonRetryable('the case was deleted before it was run', RUN_FAILURE.evalCaseNotFound);
  const caseProblem = storedCaseProblem(evalCase);
  if (caseProblem) throw ApplicationFailure.nonRetryable(caseProblem, RUN_FAILURE.limitExceeded);
  return evalCase;
}

// A scenario case (no turns of its own) is played by a simulated user with its set's simulator settings, asking the
// run's judge provider (the set's simulator model, else the judge's).
async function simulationOf(
  deps: ActivityDeps,
  run: ScoringRun,
  evalCase: EvalCase,
  seed: number,
): Promise<AgentRunSimulation | undefined> {
  const scenario = evalCase.conversation_scenario;
  if (evalCase.turns || !scenario) return undefined;
  if (!run.judge)
    throw ApplicationFailure.nonRetryable(
      'the run resolved no judge provider to play the simulated user',
      RUN_FAILURE.judgeUnresolvable,
    );
  const set = await findEvalSet(deps.db, run.agent_id, evalCase.eval_set_id);
  const settings = resolveSimulatorSettings(set?.simulator);
  return {
    scenario,
    max_turns: settings.max_turns,
    stop_signal: settings.stop_signal,
    model: settings.model ?? run.judge.model,
    seed,
    usage: { calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    cached_turns: 0,
  };
}

// A sandbox case replays the calls recorded in its source conversation: the case's snapshot, else the conversation;
// a recording of as many turns as the case, each turn's calls to that turn.
async function replayedCalls(
  deps: ActivityDeps,
  run: ScoringRun,
  evalCase: EvalCase,
  turns: number,
): Promise<Pick<RunTarget, 'replay' | 'replayTurns'>> {
  const source =
    evalCase.source_run_id && (turns > 1 || !evalCase.snapshot)
      ? await findConversation(deps.db, run.agent_id, evalCase.source_run_id)
      : undefined;
  const replayProblem =
    source &&
    !evalCase.snapshot &&
    overLimit('the source conversation tool_calls', source.tool_calls.length, 'toolCallsPerConversation');
  if (replayProblem) throw ApplicationFailure.nonRetryable(replayProblem, RUN_FAILURE.limitExceeded);
  const replay = evalCase.snapshot?.tool_calls ?? source?.tool_calls ?? [];
  const counts = source?.turns?.length === turns ? source.turns.map((turn) => turn.tool_calls.length) : undefined;
  return { replay, replayTurns: counts && turnSlices(counts, replay.length) };
}

// Consecutive `[from, to)` slices of the given sizes, when they cover exactly `total` calls.
function turnSlices(counts: number[], total: number): Array<[number, number]> | undefined {
  let from = 0;
  const slices = counts.map((count): [number, number] => [from, (from += count)]);
  return from === total ? slices : undefined;
}

/** The target of a live eval run's case: the run's pinned agent on the case's input, replaying its recorded calls. */
export async function sandboxTarget(
  deps: ActivityDeps,
  request: { evalRunId: string; evalCaseId: string; repeat?: number },
): Promise<RunTarget> {
  const run = await requireScoringRun(deps, request.evalRunId);
  const evalCase = await requireRunnableCase(deps, request.evalCaseId);
  const simulation = await simulationOf(deps, run, evalCase, request.repeat ?? 0);
  const userMessages = simulation
    ? [simulation.scenario.starting_prompt]
    : caseTurns(evalCase).map((turn) => turn.user_message);
  const turnProblem = overLimit('the case turns', userMessages.length, 'turnsPerConversation');
  if (turnProblem) throw ApplicationFailure.nonRetryable(turnProblem, RUN_FAILURE.limitExceeded);
  if (userMessages.length === 0) throw ApplicationFailure.nonRetryable('the case has no turns to run');
  const replay = await replayedCalls(deps, run, evalCase, userMessages.length);
  const set = await findSetToolSettings(deps.db, run.eval_set_id);
  // A run preflighted before runs pinned their agent pins it now, once, for all its cases.
  const pinned = run.agent ?? (await pinLiveRunAgent(deps, deps.egress, run));
  return {
    workspaceId: run.workspace_id,
    agentId: run.agent_id,
    mode: 'sandbox',
    // The runtime has no session state of its own: a case's state travels in the session input, as its other fields.
    sessionInput: evalCase.state ? { ...evalCase.session_input, state: evalCase.state } : evalCase.session_input,
    userMessages,
    ...replay,
    evalRunId: run.id,
    evalCaseId: evalCase.id,
    pinnedVersion: pinned.version,
    mocks: runMocks(
      evalCase.tool_mocks,
      set?.tool_mocks ?? null,
      set?.mock_policy ?? DEFAULT_MOCK_POLICY,
      set?.simulate_tool_responses,
    ),
    ...(simulation ? { simulation } : {}),
    ...(run.candidate_tool_id ? { candidateToolId: run.candidate_tool_id } : {}),
  };
}
