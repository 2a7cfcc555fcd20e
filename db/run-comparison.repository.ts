import { sql } from 'kysely';
import type { Db } from './database';
import type { BaselineRef } from '../domain/eval/run-tags';
import type { ComparedResult } from '../domain/eval/run-comparison';
import { LIMITS } from '../domain/limits';
import type { EvalRun } from './tables/eval-run.table';

// The newest completed run of the run's set, newest by (created_at, id) like the runs list.
function completedRunsOfSet(db: Db, run: EvalRun) {
  return db
    .selectFrom('eval_runs')
    .selectAll()
    .where('eval_set_id', '=', run.eval_set_id)
    .where('status', '=', 'completed')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1);
}

/**
 * The baseline a keyword names for `run`: `last-completed` is the newest completed run of its set created before it;
 * `tag:x` the newest completed run of its set carrying tag x, other than itself. Undefined when there is none.
 */
export async function findKeywordBaseline(
  db: Db,
  run: EvalRun,
  ref: Exclude<BaselineRef, { kind: 'run' }>,
): Promise<EvalRun | undefined> {
  const query = completedRunsOfSet(db, run);
  if (ref.kind === 'last-completed') {
    // Compared in Postgres: a JS Date would round `created_at` to milliseconds and misplace runs of the same one.
    return query
      .where(sql<boolean>`(created_at, id) < (select created_at, id from eval_runs where id = ${run.id})`)
      .executeTakeFirst();
  }
  return query
    .where('tags', '@>', sql<string[]>`array[${ref.tag}]::text[]`)
    .where('id', '!=', run.id)
    .executeTakeFirst();
}

/**
 * The stored results of a run as a comparison reads them (at most `casesPerEvalSet`, by case id): each criterion's
 * score, null where it did not apply, and a multi-turn result's first failed turn, computed in Postgres so no
 * criterion or turn detail is loaded.
 */
export async function listComparedResults(db: Db, runId: string): Promise<ComparedResult[]> {
  const rows = await db
    .selectFrom('case_results as r')
    .select([
      'r.case_id',
      'r.case_name',
      'r.status',
      'r.flip_rate',
      'r.efficiency',
      sql<Record<string, number | null>>`coalesce((
        select jsonb_object_agg(e.key, case when (e.value->>'applicable')::boolean then e.value->'score' else 'null'::jsonb end)
        from jsonb_each(r.criteria) as e), '{}'::jsonb)`.as('scores'),
      sql<boolean>`jsonb_typeof(r.turns) = 'array'`.as('by_turns'),
      sql<number | null>`(select min((t->>'turn')::int) from jsonb_array_elements(
        case when jsonb_typeof(r.turns) = 'array' then r.turns else '[]'::jsonb end) as t
        where (t->>'passed')::boolean is false)`.as('first_failed_turn'),
    ])
    .where('r.run_id', '=', runId)
    .orderBy('r.case_id')
    .limit(LIMITS.casesPerEvalSet)
    .execute();
  return rows.map(({ by_turns, first_failed_turn, ...result }) =>
    by_turns ? { ...result, first_failed_turn } : result,
  );
}

/** The `tool_trajectory_avg_score` detail of some cases of a run, by case id (cases without one left out). */
export async function listTrajectoryDetails(
  db: Db,
  runId: string,
  caseIds: readonly string[],
): Promise<Map<string, unknown>> {
  if (caseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('case_results')
    .select(['case_id', sql<unknown>`criteria->'tool_trajectory_avg_score'->'detail'`.as('detail')])
    .where('run_id', '=', runId)
    .where('case_id', 'in', [...caseIds])
    .execute();
  return new Map(rows.filter((row) => row.detail != null).map((row) => [row.case_id, row.detail]));
}
