import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { findCaseResult, recordCaseResult } from '../db/case-result.repository';
import { releaseCaseSlot } from '../db/case-slot.repository';
import { findConversation } from '../db/conversation.repository';
import { findEvalCaseById } from '../db/eval-case.repository';
import {
  completeRun,
  explicitConversationFor,
  failRun,
  findScoringRun,
  markRunRunning,
  settleEvalRun,
  summarizeStoredResults,
  type ScoringRun,
} from '../db/eval-run.repository';
import { countRunCases, runCaseIdPage, someRunCaseNeedsJudge, type RunCaseScope } from '../db/run-cases.repository';
import type { CaseStatus } from '../domain/case-outcome';
import { RUN_FAILURE } from '../domain/run-failures';
import { storedCaseProblem, storedConversationProblem } from '../domain/limit-checks';
import type { RunSummary } from '../domain/run-summary';
import type { CaseBatchOutcome } from '../domain/eval-batches';
import { caseNeedsJudge, criteriaByKey, scoreCaseAgainst } from './case-scoring';
import { inFreeCaseSlot, NO_FREE_SLOT } from './case-slot-lease';
import { judgedAgentModel, pinLiveRunAgent } from './agent-model';
import { withHeartbeat } from './heartbeat';
import { createJudge, type Judge } from './judge.activities';
import { JudgeCallBoundReached } from './judge-call-budget';
import { toActivityFailure } from './provider-connection';
import type { ActivityDeps } from './activity-deps';

function scopeOf(run: ScoringRun): RunCaseScope {
  return { evalSetId: run.eval_set_id, asOf: run.created_at };
}

async function requireRun(deps: ActivityDeps, runId: string): Promise<ScoringRun> {
  const run = await findScoringRun(deps.db, runId);
  if (!run) throw ApplicationFailure.nonRetryable(`eval run ${runId} no longer exists`, RUN_FAILURE.evalRunNotFound);
  return run;
}

const NO_CONVERSATION =
  'the case has no conversation to score: it was written by hand, so trigger the run with run_selection "explicit" ' +
  'and conversations { "<case_id>": "<run_id>" } to choose one';

/** A case to score: a live run passes the sandbox conversation. */
interface ScoreCaseInput {
  runId: string;
  caseId: string;
  conversationId?: string;
  /** The workflow already holds the case's slot (a live case holds it from the agent run through scoring). */
  slotHeld?: boolean;
}

/** Activities of the eval-run workflow: preflight, case pages, one scoring per case, and the run's end. */
export function createEvalRunActivities(deps: ActivityDeps, judge: Judge = createJudge(deps)) {
  const guard = deps.egress;
  const storeError = async (
    run: ScoringRun,
    caseId: string,
    caseName: string,
    error: string,
    conversationId: string | null = null,
  ): Promise<{ status: CaseStatus }> => {
    await recordCaseResult(deps.db, {
      run_id: run.id,
      case_id: caseId,
      case_name: caseName,
      conversation_id: conversationId,
      status: 'error',
      criteria: {},
      error,
      judge_usage: null,
      scored_by: deps.workerIdentity,
    });
    return { status: (await findCaseResult(deps.db, run.id, caseId))?.status ?? 'error' };
  };

  // Scores a case that has no result yet against its conversation and stores the outcome (an error result included).
  const scoreAndStore = async (input: ScoreCaseInput): Promise<{ status: CaseStatus }> => {
    const run = await requireRun(deps, input.runId);
    const evalCase = await findEvalCaseById(deps.db, input.caseId);
    if (!evalCase) return storeError(run, input.caseId, '(deleted case)', 'the case was deleted before it was scored');
    // Rows written before the limits existed are refused here, as a scored error, rather than exhausting the worker.
    const caseProblem = storedCaseProblem(evalCase);
    if (caseProblem) return storeError(run, evalCase.id, evalCase.name, caseProblem);
    const explicit =
      run.run_selection === 'explicit' ? await explicitConversationFor(deps.db, run.id, evalCase.id) : null;
    const conversationId = input.conversationId ?? explicit ?? evalCase.source_run_id;
    if (!conversationId) return storeError(run, evalCase.id, evalCase.name, NO_CONVERSATION);
    const conversation = await findConversation(deps.db, run.agent_id, conversationId);
    if (!conversation)
      return storeError(run, evalCase.id, evalCase.name, `conversation ${conversationId} no longer exists`);
    const conversationProblem = storedConversationProblem(conversation);
    if (conversationProblem) return storeError(run, evalCase.id, evalCase.name, conversationProblem, conversation.id);
    const signal = Context.current().cancellationSignal;
    try {
      return await withHeartbeat(async () => {
        const judged = { runId: run.id, caseId: evalCase.id };
        const session = caseNeedsJudge(evalCase) ? await judge.open(run, judged, signal) : null;
        const outcome = await scoreCaseAgainst({
          evalCase,
          conversation,
          minScores: run.min_scores,
          judgeSamples: run.judge_samples,
          judge: session,
        });
        await recordCaseResult(deps.db, {
          run_id: run.id,
          case_id: evalCase.id,
          case_name: evalCase.name,
          conversation_id: conversation.id,
          status: outcome.status,
          criteria: criteriaByKey(outcome),
          error: outcome.error,
          judge_usage: session?.usage() ?? null,
          scored_by: deps.workerIdentity,
        });
        return { status: outcome.status };
      });
    } catch (error) {
      // The bound is final: another attempt would only be refused, so the case ends here with an error naming it.
      if (error instanceof JudgeCallBoundReached)
        return storeError(run, evalCase.id, evalCase.name, error.message, conversation.id);
      throw toActivityFailure(error);
    }
  };

  return {
    /**
     * Marks the run running with its resolved judge (only when a case needs one) and the number of cases to score.
     * A live run first resolves its runnable agent (published, provider connected, else the run fails saying why) and
     * pins that version on the run: every case runs it, whatever is published meanwhile. A retried preflight keeps
     * the pin it made.
     */
    async preflightEvalRun(input: { runId: string }): Promise<{ total: number; live: boolean }> {
      const run = await requireRun(deps, input.runId);
      const live = run.mode === 'live';
      const pinned = live ? await pinLiveRunAgent(deps, guard, run) : null;
      const scope = scopeOf(run);
      const judged = (await someRunCaseNeedsJudge(deps.db, scope))
        ? await judge.resolveForRun(
            run,
            pinned?.model ?? (await judgedAgentModel(deps, run.workspace_id, run.agent_id)),
          )
        : null;
      const total = await countRunCases(deps.db, scope);
      await markRunRunning(deps.db, run.id, judged, total);
      return { total, live };
    },

    /** The status of a case's stored result, or null: a live case already scored is not run again. */
    async findStoredCaseResult(input: { runId: string; caseId: string }): Promise<{ status: CaseStatus | null }> {
      return { status: (await findCaseResult(deps.db, input.runId, input.caseId))?.status ?? null };
    },

    /** The next page of case ids of the run after the cursor. */
    async listRunCasePage(input: {
      runId: string;
      after: string | null;
      limit: number;
    }): Promise<{ caseIds: string[] }> {
      const run = await requireRun(deps, input.runId);
      return { caseIds: await runCaseIdPage(deps.db, scopeOf(run), input.after, input.limit) };
    },

    /**
     * Scores one case and stores its result once; a retry after a stored result changes nothing. A live run passes
     * the case's sandbox conversation; otherwise the explicit choice or the case's source conversation is scored.
     */
    async scoreCase(input: ScoreCaseInput): Promise<{ status: CaseStatus } | typeof NO_FREE_SLOT> {
      const holder = { runId: input.runId, caseId: input.caseId };
      const existing = await findCaseResult(deps.db, input.runId, input.caseId);
      // A slot left by an attempt that stored the result and then died goes back now, not when its lease lapses.
      if (existing) {
        await releaseCaseSlot(deps.db, holder);
        return existing;
      }
      return input.slotHeld ? scoreAndStore(input) : inFreeCaseSlot(deps, holder, () => scoreAndStore(input));
    },

    // TEMPORARY (window branch only): a naive batch, replaced by the batch part at merge.
    async scoreCaseBatch(input: {
      runId: string;
      caseIds: string[];
      width: number;
      conversations?: Record<string, string>;
      slotHeld?: boolean;
    }): Promise<CaseBatchOutcome> {
      const outcome: CaseBatchOutcome = {
        stored: 0,
        skipped: 0,
        passed: 0,
        failed: 0,
        error: 0,
        runClosed: false,
        worker: deps.workerIdentity,
        timings: { loadMs: 0, scoreMs: 0, writeMs: 0 },
      };
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < input.caseIds.length) {
          const caseId = input.caseIds[next++];
          const existing = await findCaseResult(deps.db, input.runId, caseId);
          const conversationId = input.conversations?.[caseId];
          const result = existing ?? (await scoreAndStore({ runId: input.runId, caseId, conversationId }));
          outcome[result.status]++;
        }
      };
      await Promise.all(Array.from({ length: input.width }, lane));
      return outcome;
    },

    // TEMPORARY (window branch only).
    async recordBatchErrors(input: { runId: string; caseIds: string[]; error: string }): Promise<CaseBatchOutcome> {
      const outcome: CaseBatchOutcome = {
        stored: 0,
        skipped: 0,
        passed: 0,
        failed: 0,
        error: 0,
        runClosed: false,
        worker: deps.workerIdentity,
        timings: { loadMs: 0, scoreMs: 0, writeMs: 0 },
      };
      for (const caseId of input.caseIds) {
        const existing = await findCaseResult(deps.db, input.runId, caseId);
        outcome[(existing ?? (await this.recordCaseError({ ...input, caseId }))).status]++;
      }
      return outcome;
    },

    /** Stores an explicit `error` result for a case whose scoring failed after its retries (never a missing result). */
    async recordCaseError(input: { runId: string; caseId: string; error: string }): Promise<{ status: CaseStatus }> {
      const run = await requireRun(deps, input.runId);
      const evalCase = await findEvalCaseById(deps.db, input.caseId);
      return storeError(run, input.caseId, evalCase?.name ?? '(deleted case)', input.error);
    },

    /** Completes the run with the summary computed from its stored results. */
    async finalizeEvalRun(input: { runId: string }): Promise<RunSummary> {
      const summary = await summarizeStoredResults(deps.db, input.runId);
      await completeRun(deps.db, input.runId, summary);
      return summary;
    },

    /** Ends a cancelled run as `cancelled` with the summary of the cases scored before it stopped. */
    async cancelEvalRun(input: { runId: string }): Promise<void> {
      await settleEvalRun(deps.db, input.runId, { status: 'cancelled', error: 'the run was cancelled' });
    },

    /** Fails the run with a message for the caller. */
    async failEvalRun(input: { runId: string; error: string }): Promise<void> {
      await failRun(deps.db, input.runId, input.error);
    },
  };
}

export type EvalRunActivities = ReturnType<typeof createEvalRunActivities>;
