import type { Efficiency } from '../domain/scoring/efficiency';
import { sql } from 'kysely';
import type { Db } from './database';
import { jsonOrNull } from './column-values';
import { notifyEvalProgress, PROGRESS_FLUSH_MAX } from './eval-progress';
import { keysetPage, type KeysetOrder, type Page, type PageParams } from './keyset-page';
import type { CaseStatus } from '../domain/scoring/case-outcome';
import type { MockReport } from '../domain/eval/tool-mocks';
import type { CaseResult, JudgeUsage, StoredCriterion, StoredRepeat } from './tables/eval-run.table';
import type { CriterionKey } from '../domain/scoring/criteria';
import type { CaseCost } from '../domain/scoring/run-cost';
import type { TurnOutcome } from '../domain/scoring/turn-outcomes';

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
  /** A scenario case of a live run: its simulated user's calls (absent or null otherwise). */
  simulator_usage?: JudgeUsage | null;
  /** Judge samples the verdict cache answered, and those it did not (0 when absent). */
  judge_cache_hits?: number;
  judge_cache_misses?: number;
  /** A run of several repeats: each repeat's outcome and the case's flip rate. */
  repeats?: StoredRepeat[] | null;
  flip_rate?: number | null;
  /** What the case cost (judge, and agent in live mode); absent on an error stored without scoring. */
  cost?: CaseCost | null;
  /** A multi-turn case or conversation: each turn position's outcome (absent or null: one turn against one). */
  turns?: TurnOutcome[] | null;
  /** A `skipped` case: why it was not scored. */
  skip_reason?: string | null;
  /** The scored conversation's efficiency figures (informational; absent for a case never scored). */
  efficiency?: Efficiency | null;
  /** The worker that scored it. */
  scored_by: string;
}

/** A stored result joined with what the builder shows beside it: the input and both final responses. */
export type CaseResultView = CaseResult & {
  session_input: unknown;
  expected_final_response: string | null;
  actual_final_response: string | null;
  /** A live case run with tool mocks: the report its conversation recorded. */
  mocks: MockReport | null;
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

/** The statuses of the stored results of the given cases of a run, by case id (one query). */
export async function findCaseResultStatuses(
  db: Db,
  runId: string,
  caseIds: readonly string[],
): Promise<Map<string, CaseStatus>> {
  if (caseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('case_results')
    .select(['case_id', 'status'])
    .where('run_id', '=', runId)
    .where('case_id', 'in', [...caseIds])
    .execute();
  return new Map(rows.map((row) => [row.case_id, row.status]));
}

/** What a flush of results stored: the rows inserted (in order), or nothing because the run has ended. */
export interface StoredResults {
  inserted: Array<{ case_id: string; status: CaseStatus }>;
  runClosed: boolean;
}

/**
 * Stores results of one run (at most `PROGRESS_FLUSH_MAX`) once each, in one transaction: one multi-row insert that
 * skips any (run, case) already stored, the run's scored count bumped by the rows inserted, and one NOTIFY naming
 * them, so the events go out exactly when the rows commit. A run that has ended (a scoring that outlived its
 * cancelled run) takes no more results: its summary stays true.
 */
export async function recordCaseResults(db: Db, runId: string, results: CaseResultInput[]): Promise<StoredResults> {
  if (results.length > PROGRESS_FLUSH_MAX) throw new Error(`at most ${PROGRESS_FLUSH_MAX} results per flush`);
  return db.transaction().execute(async (trx) => {
    const open = await trx
      .selectFrom('eval_runs')
      .select('status')
      .where('id', '=', runId)
      .where('status', 'in', ['queued', 'running'])
      .forUpdate()
      .executeTakeFirst();
    if (!open) return { inserted: [], runClosed: true };
    if (results.length === 0) return { inserted: [], runClosed: false };
    const rows = await trx
      .insertInto('case_results')
      .values(
        results.map((result) => ({
          ...result,
          run_id: runId,
          criteria: JSON.stringify(result.criteria),
          judge_usage: jsonOrNull(result.judge_usage),
          simulator_usage: jsonOrNull(result.simulator_usage ?? null),
          repeats: jsonOrNull(result.repeats),
          cost: jsonOrNull(result.cost),
          turns: jsonOrNull(result.turns),
          efficiency: jsonOrNull(result.efficiency ?? null),
        })),
      )
      .onConflict((oc) => oc.columns(['run_id', 'case_id']).doNothing())
      .returning(['case_id', 'status'])
      .execute();
    if (rows.length === 0) return { inserted: [], runClosed: false };
    const run = await trx
      .updateTable('eval_runs')
      .set((eb) => ({ scored_cases: eb('scored_cases', '+', rows.length) }))
      .where('id', '=', runId)
      .returning(['workspace_id', 'scored_cases', 'total_cases'])
      .executeTakeFirstOrThrow();
    await notifyEvalProgress(trx, {
      run_id: runId,
      workspace_id: run.workspace_id,
      scored: run.scored_cases,
      total: run.total_cases,
      cases: rows,
    });
    return { inserted: rows, runClosed: false };
  });
}

/** Stores one case result once (`recordCaseResults` for one); `inserted` is false when it was already stored. */
export async function recordCaseResult(db: Db, result: CaseResultInput): Promise<{ inserted: boolean }> {
  const { inserted } = await recordCaseResults(db, result.run_id, [result]);
  return { inserted: inserted.length > 0 };
}

/** The status, criteria, flip rate, cache use and cost of every stored result of a run, for its summary. */
export async function listResultOutcomes(
  db: Db,
  runId: string,
): Promise<
  Array<
    Pick<
      CaseResult,
      | 'case_id'
      | 'case_name'
      | 'status'
      | 'criteria'
      | 'flip_rate'
      | 'judge_cache_hits'
      | 'judge_cache_misses'
      | 'cost'
      | 'repeats'
    >
  >
> {
  return db
    .selectFrom('case_results')
    .select([
      'case_id',
      'case_name',
      'status',
      'criteria',
      'flip_rate',
      'judge_cache_hits',
      'judge_cache_misses',
      'cost',
      'repeats',
    ])
    .where('run_id', '=', runId)
    .execute();
}

function resultViews(db: Db, runId: string) {
  return db
    .selectFrom('case_results as r')
    .leftJoin('eval_cases as c', 'c.id', 'r.case_id')
    .leftJoin('conversations as v', 'v.id', 'r.conversation_id')
    .selectAll('r')
    .select([
      'c.session_input',
      'c.expected_final_response',
      'v.final_response as actual_final_response',
      'v.tool_mocks as mocks',
    ])
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
