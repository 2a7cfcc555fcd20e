import { ApplicationFailure } from '@temporalio/common';
import { findAgentRun } from '../../db/agent-run.repository';
import { findConversation } from '../../db/conversation.repository';
import { findEvalCaseById } from '../../db/eval-case.repository';
import { findScoringRun, type ScoringRun } from '../../db/eval-run.repository';
import type { AgentRun, AgentRunMode } from '../../db/tables/agent-run.table';
import type { RecordedToolCall } from '../../db/tables/conversation.table';
import type { EvalCase } from '../../db/tables/eval-set.table';
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
  replay: RecordedToolCall[];
  evalRunId: string | null;
  evalCaseId: string | null;
  /** A sandbox case runs the version its eval run pinned; a production run, the published one. */
  pinnedVersion?: number;
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

// A sandbox case replays the calls recorded in its source conversation: the case's snapshot, else the conversation.
async function replayedCalls(deps: ActivityDeps, run: ScoringRun, evalCase: EvalCase): Promise<RecordedToolCall[]> {
  if (evalCase.snapshot) return evalCase.snapshot.tool_calls;
  const source = evalCase.source_run_id
    ? await findConversation(deps.db, run.agent_id, evalCase.source_run_id)
    : undefined;
  const replayProblem =
    source && overLimit('the source conversation tool_calls', source.tool_calls.length, 'toolCallsPerConversation');
  if (replayProblem) throw ApplicationFailure.nonRetryable(replayProblem, RUN_FAILURE.limitExceeded);
  return source?.tool_calls ?? [];
}

/** The target of a live eval run's case: the run's pinned agent on the case's input, replaying its recorded calls. */
export async function sandboxTarget(
  deps: ActivityDeps,
  request: { evalRunId: string; evalCaseId: string },
): Promise<RunTarget> {
  const run = await requireScoringRun(deps, request.evalRunId);
  const evalCase = await requireRunnableCase(deps, request.evalCaseId);
  const replay = await replayedCalls(deps, run, evalCase);
  // A run preflighted before runs pinned their agent pins it now, once, for all its cases.
  const pinned = run.agent ?? (await pinLiveRunAgent(deps, deps.egress, run));
  return {
    workspaceId: run.workspace_id,
    agentId: run.agent_id,
    mode: 'sandbox',
    sessionInput: evalCase.session_input,
    replay,
    evalRunId: run.id,
    evalCaseId: evalCase.id,
    pinnedVersion: pinned.version,
  };
}
