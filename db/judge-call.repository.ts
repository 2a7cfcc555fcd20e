import { sql } from 'kysely';
import type { Db } from './database';

/**
 * Counts one more judge call for a case of a run, unless it has made `bound` already: true when the call may be made.
 * One statement, so concurrent or retried attempts of the case can never count past the bound together.
 */
export async function reserveJudgeCall(db: Db, runId: string, caseId: string, bound: number): Promise<boolean> {
  const reserved = await db
    .insertInto('case_judge_calls')
    .values({ run_id: runId, case_id: caseId, calls: 1 })
    .onConflict((oc) =>
      oc
        .columns(['run_id', 'case_id'])
        .doUpdateSet({ calls: sql<number>`case_judge_calls.calls + 1` })
        .where('case_judge_calls.calls', '<', bound),
    )
    .returning('calls')
    .executeTakeFirst();
  return reserved !== undefined;
}
