import { listCaseResults, listCaseResultsFor } from '../../db/case-result.repository';
import type { Db } from '../../db/database';
import { findEvalRunById } from '../../db/eval-run.repository';
import { LIMITS } from '../../domain/limits';
import { toCaseResultJson, toEvalRunJson } from '../json/eval-run.json';
import type { CaseResultJson, EvalRunJson } from './relay-messages';

/**
 * A run and the first page of its stored results (case order), read at one instant. A 10,000-case run must not make a
 * 10,000-result message: `next_cursor` (null when `results` is all of them) continues through `GET …/results`.
 */
export interface RunSnapshot {
  run: EvalRunJson;
  results: CaseResultJson[];
  next_cursor: string | null;
}

const atOneInstant = <T>(db: Db, read: (trx: Db) => Promise<T>): Promise<T> =>
  db.transaction().setIsolationLevel('repeatable read').execute(read);

/** Reads a run with its first page of results in one REPEATABLE READ transaction; undefined when the run is gone. */
export async function readRunSnapshot(db: Db, runId: string): Promise<RunSnapshot | undefined> {
  return atOneInstant(db, async (trx) => {
    const run = await findEvalRunById(trx, runId);
    if (!run) return undefined;
    const page = await listCaseResults(trx, runId, { limit: LIMITS.pageDefault });
    return { run: toEvalRunJson(run), results: page.items.map(toCaseResultJson), next_cursor: page.nextCursor };
  });
}

/** A run with every stored result (read page by page at one instant), to fill a gap after LISTEN was lost. */
export async function readRunWithAllResults(
  db: Db,
  runId: string,
): Promise<{ run: EvalRunJson; results: CaseResultJson[] } | undefined> {
  return atOneInstant(db, async (trx) => {
    const run = await findEvalRunById(trx, runId);
    if (!run) return undefined;
    const results: CaseResultJson[] = [];
    let cursor: string | undefined;
    do {
      const page = await listCaseResults(trx, runId, { limit: LIMITS.pageMax, cursor });
      results.push(...page.items.map(toCaseResultJson));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return { run: toEvalRunJson(run), results };
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
