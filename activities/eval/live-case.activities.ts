import { ApplicationFailure } from '@temporalio/common';
import { findAgentRunByKey } from '../../db/agent-run.repository';
import type { CaseBatchOutcome } from '../../domain/eval/eval-batches';
import { CANCELLED } from '../../domain/eval/run-end';
import { heldCaseBatch, type LiveCaseInput } from '../../domain/eval/live-case';
import { endAgentRun } from '../../lib/run-ends';
import type { ActivityDeps } from '../platform/activity-deps';
import { createAgentRuntimeActivities } from '../agent/agent-runtime.activities';
import type { createSandboxAgentRunActivities } from '../agent/sandbox-agent-run.activities';
import type { createEvalRunActivities } from './eval-run.activities';

type EvalRunActivities = Pick<ReturnType<typeof createEvalRunActivities>, 'findStoredCaseResult' | 'scoreCaseBatch'>;
type SandboxActivities = ReturnType<typeof createSandboxAgentRunActivities>;

/**
 * A live case in one activity: its stored result looked up, each repeat's sandbox run prepared and run (keyed, so a
 * retried attempt resumes the run it started and never makes a second), then its conversations scored in the slot the
 * workflow holds. The groups are the worker's own (the judge's AIMD and caches are shared, not copied).
 */
export function createLiveCaseActivities(deps: ActivityDeps, evalRun: EvalRunActivities, sandbox: SandboxActivities) {
  const { prepareAgentRun } = createAgentRuntimeActivities(deps);
  return {
    /** Runs and scores one live case; a case already scored is only counted, one without turns (or scenario) not run. */
    async runLiveCase(input: LiveCaseInput): Promise<CaseBatchOutcome> {
      const { runId, caseId } = input;
      const { status, turns, scenario } = await evalRun.findStoredCaseResult({ runId, caseId });
      const conversationIds: string[] = [];
      if (status === null && (turns !== 0 || scenario))
        for (const [repeat, key] of input.keys.entries()) {
          const request = { mode: 'sandbox', evalRunId: runId, evalCaseId: caseId, repeat, key } as const;
          const prepared = await prepareAgentRun(request);
          conversationIds.push((await sandbox.runSandboxAgent(prepared)).conversationId);
        }
      const answer = await evalRun.scoreCaseBatch(heldCaseBatch(runId, caseId, conversationIds));
      if ('waitingForSlot' in answer) throw ApplicationFailure.nonRetryable('a live case lost the slot it held');
      return answer;
    },

    /** Ends a live case's sandbox runs still running: cancelled with its run, or failed with the case's error. */
    async endLiveCaseRuns(input: { keys: string[]; error?: string }): Promise<void> {
      for (const key of input.keys) {
        const run = await findAgentRunByKey(deps.db, key);
        if (!run) continue;
        await endAgentRun(
          deps.db,
          run.id,
          input.error === undefined ? { stopped: CANCELLED } : { status: 'failed', error: input.error },
        );
      }
    },
  };
}
