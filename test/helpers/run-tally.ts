import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** What a run stored, counted in Postgres: results, distinct cases, and results per worker (`scored_by`). */
export interface RunTally {
  results: number;
  distinctCases: number;
  perWorker: Record<string, number>;
}

/** Counts a run's stored results, in total, per case and per worker identity. */
export async function tallyRun(db: Db, runId: string): Promise<RunTally> {
  const totals = await sql<{ results: string; cases: string }>`
    SELECT count(*) AS results, count(DISTINCT case_id) AS cases FROM case_results WHERE run_id = ${runId}`.execute(db);
  const workers = await sql<{ scored_by: string | null; n: string }>`
    SELECT scored_by, count(*) AS n FROM case_results WHERE run_id = ${runId} GROUP BY scored_by`.execute(db);
  return {
    results: Number(totals.rows[0].results),
    distinctCases: Number(totals.rows[0].cases),
    perWorker: Object.fromEntries(workers.rows.map((row) => [row.scored_by ?? '(none)', Number(row.n)])),
  };
}

/** "Nothing lost": exactly one result per case of a set of `total`; throws (naming the counts) otherwise. */
export function assertNothingLost(tally: RunTally, total: number): string {
  const line = `nothing lost: ${tally.results} results, ${tally.distinctCases} distinct cases, ${total} cases in the set`;
  if (tally.results !== total || tally.distinctCases !== total) throw new Error(`LOST OR DUPLICATED — ${line}`);
  return line;
}
