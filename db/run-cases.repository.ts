import { sql } from 'kysely';
import type { Db } from './database';
import { OLDEST_FIRST, keysetPage, type Page, type PageParams } from './keyset-page';
import type { EvalRun } from './tables/eval-run.table';
import type { EvalCase } from './tables/eval-set.table';

/**
 * The cases a run scores: those of its set that existed when the run was created; for a retry (`retryOf`), only
 * those of them that ended `error` in the run it retries (an ended run's results never change).
 */
export interface RunCaseScope {
  evalSetId: string;
  asOf: Date;
  retryOf: string | null;
}

/** The scope of a run's cases, read from its row. */
export function runCaseScope(run: Pick<EvalRun, 'eval_set_id' | 'created_at' | 'retry_of'>): RunCaseScope {
  return { evalSetId: run.eval_set_id, asOf: run.created_at, retryOf: run.retry_of };
}

function inScope(db: Db, scope: RunCaseScope) {
  const { retryOf } = scope;
  const query = db
    .selectFrom('eval_cases')
    .where('eval_set_id', '=', scope.evalSetId)
    .where('created_at', '<=', scope.asOf);
  if (retryOf === null) return query;
  return query.where('id', 'in', (eb) =>
    eb.selectFrom('case_results').select('case_id').where('run_id', '=', retryOf).where('status', '=', 'error'),
  );
}

/** How many cases a run scores. */
export async function countRunCases(db: Db, scope: RunCaseScope): Promise<number> {
  const row = await inScope(db, scope)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** True when some case of the run needs the judge (an expected final response or rubrics). */
export async function someRunCaseNeedsJudge(db: Db, scope: RunCaseScope): Promise<boolean> {
  const row = await inScope(db, scope)
    .select('id')
    .where((eb) =>
      eb.or([
        eb('expected_final_response', 'is not', null),
        sql<boolean>`jsonb_array_length(coalesce(rubrics, '[]'::jsonb)) > 0`,
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The next page of a run's case ids after `after`, in id order (a keyset page: stable while cases change). */
export async function runCaseIdPage(
  db: Db,
  scope: RunCaseScope,
  after: string | null,
  limit: number,
): Promise<string[]> {
  let query = inScope(db, scope).select('id').orderBy('id').limit(limit);
  if (after !== null) query = query.where('id', '>', after);
  return (await query.execute()).map((row) => row.id);
}

/** The cases a run scores, in creation order (what the builder shows as waiting until their results arrive). */
export async function listRunCases(db: Db, scope: RunCaseScope, page: PageParams): Promise<Page<EvalCase>> {
  return keysetPage(inScope(db, scope).selectAll(), OLDEST_FIRST, page);
}
