import {
  ApplicationFailure,
  CancellationScope,
  executeChild,
  isCancellation,
  makeContinueAsNewFunc,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import type { CaseBatchOutcome } from '../domain/eval/eval-batches';
import { heldCaseBatch } from '../domain/eval/live-case';
import { BOOKKEEPING_ACTIVITY, LIVE_CASE_ACTIVITY, SCORING_ACTIVITY } from './activity-options';
import { agentRunWorkflow } from './agent-run.workflow';
import { runWindow } from './batch-window';
import { CaseFeed, lowWaterFor, unlistedFeed, type CaseFeedState } from './case-feed';
import { inCaseSlot, scoreInCaseSlot } from './case-slot';
import { laneWidths } from './batch-window';
import { progressDetails, progressQuery, startingProgress, type EvalRunProgress } from './eval-run-progress';
import { failureMessage, isRunFatal } from './run-failure-checks';
import { AgentIdKey, EvalRunStatusKey, workflowIds, WorkspaceIdKey } from './temporal-names';
import type { Activities } from '../activities';

const bookkeeping = proxyActivities<Activities>(BOOKKEEPING_ACTIVITY);
const scoring = proxyActivities<Activities>(SCORING_ACTIVITY);
const liveCases = proxyActivities<Activities>(LIVE_CASE_ACTIVITY);

/** Input of `evalRunWorkflow`; everything but `runId` and `concurrency` is carried across continue-as-new only. */
export interface EvalRunWorkflowInput {
  runId: string;
  concurrency: number;
  /** History events per execution before continuing as new (`EVAL_HISTORY_BUDGET`); runs started before it: 5,000. */
  historyBudget?: number;
  /** The run's one-line summary (agent · set · cases · mode): static on the first execution, and atop every details. */
  summary?: string;
  preflightDone?: boolean;
  live?: boolean;
  /** Times a live case runs its agent (the run's `repeats`); 1 for runs started before repeats. */
  repeats?: number;
  feed?: CaseFeedState;
  progress?: EvalRunProgress;
}

/** How the run ended. */
export interface EvalRunWorkflowResult {
  status: 'completed' | 'failed';
  error?: string;
}

// The sandbox runs carry the run's workspace and agent, so they can be found beside it in the Temporal Web UI.
function childSearchAttributes(): SearchAttributePair[] {
  const attributes = workflowInfo().typedSearchAttributes;
  const pairs: SearchAttributePair[] = [];
  for (const key of [WorkspaceIdKey, AgentIdKey]) {
    const value = attributes.get(key);
    if (value !== undefined) pairs.push({ key, value });
  }
  return pairs;
}

// A batch in the lane's slots; one that failed past its retries becomes `error` results (never missing ones). A
// carried batch waits for the previous execution's attempt on its first call only: a later call (after waiting for a
// slot) would otherwise wait for the slot this workflow holds for it.
async function scoreBatch(
  runId: string,
  caseIds: string[],
  width: number,
  carried: boolean,
): Promise<CaseBatchOutcome> {
  let first = carried;
  try {
    return await scoreInCaseSlot<CaseBatchOutcome>({ runId, caseId: caseIds[0] }, () => {
      const input = { runId, caseIds, width, carried: first };
      first = false;
      return scoring.scoreCaseBatch(input);
    });
  } catch (error) {
    if (isCancellation(error) || isRunFatal(error)) throw error;
    const message = `scoring failed after retries: ${failureMessage(error)}`;
    return bookkeeping.recordBatchErrors({ runId, caseIds, error: message });
  }
}

// Scores a live case in the slot it already holds (so the activity never answers that it waits for one), against the
// conversation of each repeat's agent run (none: the case already has a result and is only counted).
async function scoreHeldCase(runId: string, caseId: string, conversationIds: string[] = []): Promise<CaseBatchOutcome> {
  const answer = await scoring.scoreCaseBatch(heldCaseBatch(runId, caseId, conversationIds));
  if ('waitingForSlot' in answer) throw ApplicationFailure.nonRetryable('a live case lost the slot it held');
  return answer;
}

/** The patch under which a live case is one activity of this workflow (its sandbox runs and its scoring). */
export const LIVE_CASE_IN_ONE_ACTIVITY = 'live-case-in-one-activity';

// Histories from before that patch: each repeat a child workflow, then the case scored.
async function runLiveCaseInChildren(runId: string, caseId: string, keys: string[]): Promise<CaseBatchOutcome> {
  const { status, turns } = await bookkeeping.findStoredCaseResult({ runId, caseId });
  if (status !== null || turns === 0) return scoreHeldCase(runId, caseId);
  const conversationIds: string[] = [];
  for (const workflowId of keys) {
    const { conversationId } = await executeChild(agentRunWorkflow, {
      workflowId,
      args: [{ mode: 'sandbox', evalRunId: runId, evalCaseId: caseId }],
      typedSearchAttributes: childSearchAttributes(),
    });
    conversationIds.push(conversationId);
  }
  return scoreHeldCase(runId, caseId, conversationIds);
}

// Live: the case runs in the sandbox once per repeat (one after another, each run keyed by run, case and repeat: the
// case holds one slot), then its new conversations are scored, the slot held from the agent runs through scoring: one
// activity (a workflow and its tasks per case were most of a live run's time). A case that already has a result is not
// run a second time; nor is one without turns (a conversation scenario, which needs a simulated user): scoring decides
// its result. However the activity ends, its sandbox runs still running end with it.
async function scoreLiveCase(runId: string, caseId: string, repeats: number): Promise<CaseBatchOutcome> {
  const keys = Array.from({ length: repeats }, (_, repeat) => workflowIds.evalCaseRepeatRun(runId, caseId, repeat));
  let inOne = false;
  try {
    return await inCaseSlot({ runId, caseId }, () => {
      inOne = patched(LIVE_CASE_IN_ONE_ACTIVITY);
      return inOne ? liveCases.runLiveCase({ runId, caseId, keys }) : runLiveCaseInChildren(runId, caseId, keys);
    });
  } catch (error) {
    const cancelled = isCancellation(error);
    const message = `scoring failed after retries: ${failureMessage(error)}`;
    if (inOne)
      await CancellationScope.nonCancellable(() =>
        liveCases.endLiveCaseRuns({ keys, error: cancelled ? undefined : failureMessage(error) }),
      );
    if (cancelled || isRunFatal(error)) throw error;
    return bookkeeping.recordBatchErrors({ runId, caseIds: [caseId], error: message });
  }
}

function setStatus(status: 'running' | 'completed' | 'failed' | 'cancelled'): void {
  upsertSearchAttributes([{ key: EvalRunStatusKey, value: status }]);
}

/**
 * Scores every case of an eval run in batches with `concurrency` cases in flight, handing over to a new execution
 * (continue-as-new) when the history reaches its budget, then completes the run from the stored results. Offline
 * scores recorded conversations; live first runs each case's agent in the sandbox (one activity per case, its scoring too).
 */
export async function evalRunWorkflow(input: EvalRunWorkflowInput): Promise<EvalRunWorkflowResult> {
  const { runId, concurrency } = input;
  let live = input.live ?? false;
  let repeats = input.repeats ?? 1;
  const progress = input.progress ?? startingProgress(null);
  setHandler(progressQuery, () => progress);
  let carry: EvalRunWorkflowInput | null = null;
  try {
    if (!input.preflightDone) {
      const preflight = await bookkeeping.preflightEvalRun({ runId });
      live = preflight.live;
      repeats = preflight.repeats ?? 1;
      progress.total = preflight.total;
      setStatus('running');
    }
    setCurrentDetails(progressDetails(progress, input.summary));
    const list = async (after: string | null, limit: number) =>
      (await bookkeeping.listRunCasePage({ runId, after, limit })).caseIds;
    const feed = new CaseFeed(
      input.feed ?? unlistedFeed(),
      list,
      lowWaterFor(live ? concurrency : laneWidths(concurrency).length),
    );
    const end = await runWindow({
      concurrency,
      summary: input.summary,
      historyBudget: input.historyBudget ?? 5_000,
      feed,
      progress,
      single: live,
      drainOnHandover: live,
      score: live
        ? (caseIds) => scoreLiveCase(runId, caseIds[0], repeats)
        : (caseIds, width, carried) => scoreBatch(runId, caseIds, width, carried),
    });
    if (end.handover) {
      const carried = [...end.inFlight, ...feed.state.carried];
      carry = {
        ...input,
        preflightDone: true,
        live,
        repeats,
        feed: { ...feed.state, carried },
        progress: { ...progress, inFlight: 0 },
      };
    } else await bookkeeping.finalizeEvalRun({ runId });
  } catch (error) {
    if (isCancellation(error)) {
      // Cancelled (Temporal UI, `temporal workflow cancel`): record it whatever the cancelled scope would refuse.
      await CancellationScope.nonCancellable(() => bookkeeping.cancelEvalRun({ runId }));
      setStatus('cancelled');
      throw error;
    }
    const message = failureMessage(error);
    await bookkeeping.failEvalRun({ runId, error: message });
    setStatus('failed');
    return { status: 'failed', error: message };
  }
  if (carry) {
    // Outside the try: continue-as-new works by throwing, and must not be mistaken for a failure.
    const next = makeContinueAsNewFunc<typeof evalRunWorkflow>({
      typedSearchAttributes: workflowInfo().typedSearchAttributes,
    });
    return next(carry);
  }
  setStatus('completed');
  return { status: 'completed' };
}
