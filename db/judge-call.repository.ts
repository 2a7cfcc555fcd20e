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

/**
 * Counts, in one statement for a whole batch, the judge calls each case is expected to make, up to `bound` per case (a
 * number for every case, or each case's own): answers how many each case got. A call counted here and never made (its attempt died) still counts, which only ever
 * errs towards the bound. Should another attempt count calls for the same case at the same instant, the answer may
 * include its calls too; retries of a live batch are never concurrent, so that is a dead attempt's few calls at most.
 */
export async function reserveJudgeCalls(
  db: Db,
  runId: string,
  wanted: ReadonlyMap<string, number>,
  bound: number | ReadonlyMap<string, number>,
): Promise<Map<string, number>> {
  if (wanted.size === 0) return new Map();
  const ids = [...wanted.keys()];
  const bounds = ids.map((id) => (typeof bound === 'number' ? bound : (bound.get(id) ?? 0)));
  const { rows } = await sql<{ case_id: string; granted: number }>`
    WITH wanted AS (
      SELECT * FROM unnest(${ids}::uuid[], ${[...wanted.values()]}::int[], ${bounds}::int[]) AS w(case_id, n, bound)
    ),
    before AS (
      SELECT case_id, calls FROM case_judge_calls WHERE run_id = ${runId} AND case_id IN (SELECT case_id FROM wanted)
    ),
    counted AS (
      INSERT INTO case_judge_calls (run_id, case_id, calls)
      SELECT ${runId}, case_id, least(n, bound) FROM wanted
      ON CONFLICT (run_id, case_id) DO UPDATE
        SET calls = least(case_judge_calls.calls + excluded.calls, (SELECT bound FROM wanted w WHERE w.case_id = excluded.case_id))
      RETURNING case_id, calls
    )
    SELECT counted.case_id::text AS case_id, (counted.calls - coalesce(before.calls, 0))::int AS granted
    FROM counted LEFT JOIN before USING (case_id)`.execute(db);
  return new Map(rows.map((row) => [row.case_id, row.granted]));
}
