import { sql } from 'kysely';
import type { Db } from './database';
import { jsonOrNull } from './column-values';
import { notifyEvalProgress } from './eval-progress';
import { keysetPage, type KeysetOrder, type Page, type PageParams } from './keyset-page';
import type { CaseStatus } from '../domain/case-outcome';
import type { CaseResult, JudgeUsage, StoredCriterion } from './tables/eval-run.table';
import type { CriterionKey } from '../domain/criteria';

/** A case result to store. */
export interface CaseResultInput {
  run_id: string;
  case_id: string;
  case_name: string;
  conversation_id: string | null;
  status: CaseStatus;
  criteria: Partial<Record<CriterionKey, StoredCriterion>>;
  error: string | null;
  judge_usage: JudgeUsage | null;
  /** The worker that scored it. */
  scored_by: string;
}

/** A stored result joined with what the builder shows beside it: the input and both final responses. */
export type CaseResultView = CaseResult & {
  session_input: unknown;
  expected_final_response: string | null;
  actual_final_response: string | null;
};

/** The stored result of a case in a run, if any. */
export async function findCaseResult(
  db: Db,
  runId: string,
  caseId: string,
): Promise<Pick<CaseResult, 'status'> | undefined> {
  return db
    .selectFrom('case_results')
    .select('status')
    .where('run_id', '=', runId)
    .where('case_id', '=', caseId)
    .executeTakeFirst();
}

/**
 * Stores a case result once: a retried write finds the (run, case) row and changes nothing. A first write bumps the
 * run's scored count and NOTIFYs progress in the same transaction, so the event is sent exactly when the row commits.
 * A run that has ended (a scoring that outlived its cancelled run) takes no more results: its summary stays true.
 */
export async function recordCaseResult(db: Db, result: CaseResultInput): Promise<{ inserted: boolean }> {
  return db.transaction().execute(async (trx) => {
    const open = await trx
      .selectFrom('eval_runs')
      .select('status')
      .where('id', '=', result.run_id)
      .where('status', 'in', ['queued', 'running'])
      .forUpdate()
      .executeTakeFirst();
    if (!open) return { inserted: false };
    const inserted = await trx
      .insertInto('case_results')
      .values({ ...result, criteria: JSON.stringify(result.criteria), judge_usage: jsonOrNull(result.judge_usage) })
      .onConflict((oc) => oc.columns(['run_id', 'case_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return { inserted: false };
    const run = await trx
      .updateTable('eval_runs')
      .set((eb) => ({ scored_cases: eb('scored_cases', '+', 1) }))
      .where('id', '=', result.run_id)
      .returning(['workspace_id', 'scored_cases', 'total_cases'])
      .executeTakeFirstOrThrow();
    await notifyEvalProgress(trx, {
      run_id: result.run_id,
      workspace_id: run.workspace_id,
      scored: run.scored_cases,
      total: run.total_cases,
      case_id: result.case_id,
      status: result.status,
    });
    return { inserted: true };
  });
}

/** The status and criteria of every stored result of a run, for its summary. */
export async function listResultOutcomes(
  db: Db,
  runId: string,
): Promise<Array<Pick<CaseResult, 'status' | 'criteria'>>> {
  return db.selectFrom('case_results').select(['status', 'criteria']).where('run_id', '=', runId).execute();
}

function resultViews(db: Db, runId: string) {
  return db
    .selectFrom('case_results as r')
    .leftJoin('eval_cases as c', 'c.id', 'r.case_id')
    .leftJoin('conversations as v', 'v.id', 'r.conversation_id')
    .selectAll('r')
    .select(['c.session_input', 'c.expected_final_response', 'v.final_response as actual_final_response'])
    .where('r.run_id', '=', runId);
}

// Case order; a result whose case was deleted since keeps its place by the time it was recorded.
const RESULT_ORDER: KeysetOrder = {
  keys: [
    { ref: sql`coalesce(c.created_at, r.created_at)`, kind: 'time' },
    { ref: 'r.case_id', kind: 'uuid' },
  ],
  direction: 'asc',
};

/** One page of a run's results in case order, joined with the case input and the scored conversation's answer. */
export async function listCaseResults(db: Db, runId: string, page: PageParams): Promise<Page<CaseResultView>> {
  return keysetPage(resultViews(db, runId), RESULT_ORDER, page);
}

/** The results of the given cases of a run (those stored so far), as `listCaseResults` shows them. */
export async function listCaseResultsFor(db: Db, runId: string, caseIds: readonly string[]): Promise<CaseResultView[]> {
  if (caseIds.length === 0) return [];
  return resultViews(db, runId)
    .where('r.case_id', 'in', [...caseIds])
    .execute();
}
