import { listCaseResults, listCaseResultsFor } from '../../db/case-result.repository';
import type { Db } from '../../db/database';
import { findEvalRunById } from '../../db/eval-run.repository';
import { toCaseResultJson, toEvalRunJson } from '../eval-run.json';
import type { CaseResultJson, EvalRunJson } from './relay-messages';

/** A run and the results stored so far, read at one instant (so `run.scored_cases` equals `results.length`). */
export interface RunSnapshot {
  run: EvalRunJson;
  results: CaseResultJson[];
}

/** Reads a run with its results in one REPEATABLE READ transaction; undefined when the run is gone. */
export async function readRunSnapshot(db: Db, runId: string): Promise<RunSnapshot | undefined> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const run = await findEvalRunById(trx, runId);
      if (!run) return undefined;
      return { run: toEvalRunJson(run), results: (await listCaseResults(trx, runId)).map(toCaseResultJson) };
    });
}

/** The run as the API shows it, or undefined. */
export async function readRun(db: Db, runId: string): Promise<EvalRunJson | undefined> {
  const run = await findEvalRunById(db, runId);
  return run ? toEvalRunJson(run) : undefined;
}

const CHUNK = 500;

/** The stored results of the given cases of a run, keyed by case id. */
export async function readCaseResults(
  db: Db,
  runId: string,
  caseIds: readonly string[],
): Promise<Map<string, CaseResultJson>> {
  const found = new Map<string, CaseResultJson>();
  for (let start = 0; start < caseIds.length; start += CHUNK) {
    for (const row of await listCaseResultsFor(db, runId, caseIds.slice(start, start + CHUNK)))
      found.set(row.case_id, toCaseResultJson(row));
  }
  return found;
}
