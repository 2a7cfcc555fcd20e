import { ApplicationFailure } from '@temporalio/common';
import { findCaseResult } from '../../db/case-result.repository';
import { findScoringRun, markRunRunning, summarizeStoredResults, type ScoringRun } from '../../db/eval-run.repository';
import { countRunCases, runCaseIdPage, runCaseScope, someRunCaseNeedsJudge } from '../../db/run-cases.repository';
import { findEvalCaseById } from '../../db/eval-case.repository';
import type { CaseStatus } from '../../domain/scoring/case-outcome';
import { caseTurns } from '../../domain/eval/case-turns';
import type { CaseBatchOutcome } from '../../domain/eval/eval-batches';
import { RUN_FAILURE } from '../../domain/eval/run-failures';
import { endEvalRun } from '../../lib/run-ends';
import { CANCELLED } from '../../domain/eval/run-end';
import type { RunSummary } from '../../domain/scoring/run-summary';
import { judgedAgentModel, pinLiveRunAgent } from '../agent/agent-model';
import { NO_FREE_SLOT, recordBatchErrors, scoreCaseBatch, type CaseBatchInput } from './case-batch';
import { createJudge, type Judge } from '../judge/judge.service';
import type { ActivityDeps } from '../platform/activity-deps';

export type { CaseBatchInput };

async function requireRun(deps: ActivityDeps, runId: string): Promise<ScoringRun> {
  const run = await findScoringRun(deps.db, runId);
  if (!run) throw ApplicationFailure.nonRetryable(`eval run ${runId} no longer exists`, RUN_FAILURE.evalRunNotFound);
  return run;
}

/** Activities of the eval-run workflow: preflight, case pages, scoring in batches, and the run's end. */
export function createEvalRunActivities(deps: ActivityDeps, judge: Judge = createJudge(deps)) {
  const guard = deps.egress;
  return {
    /**
     * Marks the run running with its resolved judge (only when a case needs one) and the number of cases to score.
     * A live run first resolves its runnable agent (published, provider connected, else the run fails saying why) and
     * pins that version on the run: every case runs it, whatever is published meanwhile. A retried preflight keeps
     * the pin it made.
     */
    async preflightEvalRun(input: { runId: string }): Promise<{ total: number; live: boolean; repeats: number }> {
      const run = await requireRun(deps, input.runId);
      const live = run.mode === 'live';
      const pinned = live ? await pinLiveRunAgent(deps, guard, run) : null;
      const scope = runCaseScope(run);
      const judged = (await someRunCaseNeedsJudge(deps.db, scope))
        ? await judge.resolveForRun(
            run,
            pinned?.model ?? (await judgedAgentModel(deps, run.workspace_id, run.agent_id)),
          )
        : null;
      const total = await countRunCases(deps.db, scope);
      await markRunRunning(deps.db, run.id, judged, total);
      return { total, live, repeats: run.repeats };
    },

    /**
     * The status of a case's stored result, or null: a live case already scored is not run again; and the number of
     * turns an unscored case has to run (absent when the case is scored or deleted), 0 and `scenario` for a
     * conversation scenario a simulated user plays.
     */
    async findStoredCaseResult(input: {
      runId: string;
      caseId: string;
    }): Promise<{ status: CaseStatus | null; turns?: number; scenario?: boolean }> {
      const status = (await findCaseResult(deps.db, input.runId, input.caseId))?.status ?? null;
      const evalCase = status === null ? await findEvalCaseById(deps.db, input.caseId) : undefined;
      if (!evalCase) return { status };
      const turns = caseTurns(evalCase).length;
      return { status, turns, ...(turns === 0 && evalCase.conversation_scenario ? { scenario: true } : {}) };
    },

    /** The next page of case ids of the run after the cursor. */
    async listRunCasePage(input: {
      runId: string;
      after: string | null;
      limit: number;
    }): Promise<{ caseIds: string[] }> {
      const run = await requireRun(deps, input.runId);
      return { caseIds: await runCaseIdPage(deps.db, runCaseScope(run), input.after, input.limit) };
    },

    /**
     * Scores a batch of the run's cases, each once, in up to `width` workspace slots (or the one the workflow holds);
     * `{ waitingForSlot: true }` when no slot was free. Cases already stored are skipped; see `CaseBatchInput`.
     */
    async scoreCaseBatch(input: CaseBatchInput): Promise<CaseBatchOutcome | typeof NO_FREE_SLOT> {
      return scoreCaseBatch(deps, judge, await requireRun(deps, input.runId), input);
    },

    /** Stores an `error` result for each case of the batch that has none (the batch failed after its retries). */
    async recordBatchErrors(input: { runId: string; caseIds: string[]; error: string }): Promise<CaseBatchOutcome> {
      return recordBatchErrors(deps, await requireRun(deps, input.runId), input);
    },

    /** Completes the run with the summary computed from its stored results. */
    async finalizeEvalRun(input: { runId: string }): Promise<RunSummary> {
      const summary = await summarizeStoredResults(deps.db, input.runId);
      await endEvalRun(deps.db, input.runId, { status: 'completed', summary });
      return summary;
    },

    /** Ends a cancelled run as `cancelled` with the summary of the cases scored before it stopped. */
    async cancelEvalRun(input: { runId: string }): Promise<void> {
      await endEvalRun(deps.db, input.runId, { stopped: CANCELLED });
    },

    /** Fails the run with a message for the caller. */
    async failEvalRun(input: { runId: string; error: string }): Promise<void> {
      await endEvalRun(deps.db, input.runId, { status: 'failed', error: input.error });
    },
  };
}
