import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  makeContinueAsNewFunc,
  proxyActivities,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import type { EvalRunActivities } from '../activities/eval-run.activities';
import { EVAL_BATCH_MAX } from '../domain/eval-batches';
import { RUN_FATAL_FAILURES } from '../domain/run-failures';
import { BOOKKEEPING_ACTIVITY, SCORING_ACTIVITY } from './activity-options';
import { agentRunWorkflow } from './agent-run.workflow';
import { inCaseSlot, scoreInCaseSlot } from './case-slot';
import { AgentIdKey, EvalRunStatusKey, workflowIds, WorkspaceIdKey } from './temporal-names';

/** Cases scored per workflow run before continuing as new: keeps every history far below Temporal's limits. */
export const EVAL_PAGE_SIZE = 100;

const bookkeeping = proxyActivities<EvalRunActivities>(BOOKKEEPING_ACTIVITY);
const scoring = proxyActivities<EvalRunActivities>(SCORING_ACTIVITY);

/** Input of `evalRunWorkflow`; `cursor`, `preflightDone` and `live` are carried across continue-as-new only. */
export interface EvalRunWorkflowInput {
  runId: string;
  concurrency: number;
  cursor?: string | null;
  preflightDone?: boolean;
  live?: boolean;
}

/** How the run ended. */
export interface EvalRunWorkflowResult {
  status: 'completed' | 'failed';
  error?: string;
}

function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure || error instanceof ChildWorkflowFailure)
    return error.cause?.message || error.message;
  return error instanceof Error ? error.message : String(error);
}

function isRunFatal(error: unknown): boolean {
  const cause = error instanceof ActivityFailure || error instanceof ChildWorkflowFailure ? error.cause : undefined;
  return cause instanceof ApplicationFailure && RUN_FATAL_FAILURES.includes(cause.type ?? '');
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

// Live: the case runs in the sandbox as a child workflow keyed by run and case, then its new conversation is scored.
// A case that already has a result (a retried or reset parent) is not run a second time.
async function runLiveCase(runId: string, caseId: string): Promise<void> {
  if ((await bookkeeping.findStoredCaseResult({ runId, caseId })).status !== null) return;
  const { conversationId } = await executeChild(agentRunWorkflow, {
    workflowId: workflowIds.evalCaseRun(runId, caseId),
    args: [{ mode: 'sandbox', evalRunId: runId, evalCaseId: caseId }],
    typedSearchAttributes: childSearchAttributes(),
  });
  // The lane's `inCaseSlot` holds the slot for the whole live case, scoring included.
  await scoring.scoreCaseBatch({
    runId,
    caseIds: [caseId],
    width: 1,
    conversations: { [caseId]: conversationId },
    slotHeld: true,
  });
}

function setStatus(status: 'running' | 'completed' | 'failed' | 'cancelled'): void {
  upsertSearchAttributes([{ key: EvalRunStatusKey, value: status }]);
}

// Bounded lanes over one page: live cases one at a time per lane, offline cases in batches of up to `EVAL_BATCH_MAX`
// scored `concurrency` at a time, each in one of its workspace's slots (shared by all the workspace's runs); a case
// (or a batch) that failed past its retries becomes an `error` result. (Interim: the window workflow replaces this.)
async function scorePage(runId: string, caseIds: readonly string[], concurrency: number, live: boolean): Promise<void> {
  let next = 0;
  let fatal: unknown = undefined;
  const size = live ? 1 : EVAL_BATCH_MAX;
  const lane = async (): Promise<void> => {
    while (fatal === undefined && next < caseIds.length) {
      const batch = caseIds.slice(next, (next += size));
      const caseId = batch[0];
      try {
        if (live) await inCaseSlot({ runId, caseId }, () => runLiveCase(runId, caseId));
        else
          await scoreInCaseSlot({ runId, caseId }, () =>
            scoring.scoreCaseBatch({ runId, caseIds: batch, width: concurrency }),
          );
      } catch (error) {
        if (isRunFatal(error)) fatal = error;
        else
          await bookkeeping.recordBatchErrors({
            runId,
            caseIds: batch,
            error: `scoring failed after retries: ${failureMessage(error)}`,
          });
      }
    }
  };
  const lanes = live ? concurrency : Math.ceil(caseIds.length / size);
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, caseIds.length)) }, lane));
  if (fatal !== undefined) throw fatal;
}

/**
 * Scores every case of an eval run, one page per workflow run, then completes it from the stored results. Offline
 * scores recorded conversations; live first runs each case's agent in the sandbox (a child workflow per case).
 */
export async function evalRunWorkflow(input: EvalRunWorkflowInput): Promise<EvalRunWorkflowResult> {
  const { runId } = input;
  let cursor: string | null = null;
  let live = input.live ?? false;
  try {
    if (!input.preflightDone) {
      ({ live } = await bookkeeping.preflightEvalRun({ runId }));
      setStatus('running');
    }
    const { caseIds } = await bookkeeping.listRunCasePage({
      runId,
      after: input.cursor ?? null,
      limit: EVAL_PAGE_SIZE,
    });
    await scorePage(runId, caseIds, input.concurrency, live);
    if (caseIds.length === EVAL_PAGE_SIZE) cursor = caseIds[caseIds.length - 1];
    else await bookkeeping.finalizeEvalRun({ runId });
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
  if (cursor !== null) {
    // Outside the try: continue-as-new works by throwing, and must not be mistaken for a failure.
    const next = makeContinueAsNewFunc<typeof evalRunWorkflow>({
      typedSearchAttributes: workflowInfo().typedSearchAttributes,
    });
    return next({ ...input, cursor, preflightDone: true, live });
  }
  setStatus('completed');
  return { status: 'completed' };
}
