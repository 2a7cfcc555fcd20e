import { sql } from 'kysely';
import type { Db } from './database';
import { OLDEST_FIRST, keysetPage, type Page, type PageParams } from './keyset-page';
import { isUuid, jsonOrNull } from './column-values';
import type { ImportCase } from '../domain/eval/eval-set-file.reader';
import { DEFAULT_TRAJECTORY_MATCH } from '../domain/trajectory/trajectory-modes';
import type { CaseSnapshot, EvalCase } from './tables/eval-set.table';

/** The stored fields of an eval case: those a builder writes, and what a promoted case keeps of its conversation. */
export interface EvalCaseInput extends ImportCase {
  source_run_id: string | null;
  snapshot: CaseSnapshot | null;
}

/** The column values of a case's fields. */
export function evalCaseColumns(input: EvalCaseInput) {
  return {
    name: input.name,
    session_input: JSON.stringify(input.session_input),
    expected_trajectory: jsonOrNull(input.expected_trajectory),
    trajectory_match: input.trajectory_match ?? DEFAULT_TRAJECTORY_MATCH,
    expected_final_response: input.expected_final_response,
    rubrics: jsonOrNull(input.rubrics),
    turns: jsonOrNull(input.turns ?? null),
    state: jsonOrNull(input.state ?? null),
    final_state: jsonOrNull(input.final_state ?? null),
    conversation_scenario: jsonOrNull(input.conversation_scenario ?? null),
    tool_mocks: jsonOrNull(input.tool_mocks ?? null),
    tool_use_rubrics: jsonOrNull(input.tool_use_rubrics ?? null),
    source_run_id: input.source_run_id,
    snapshot: jsonOrNull(input.snapshot),
  };
}

/** Adds a case to an eval set. */
export async function insertEvalCase(db: Db, evalSetId: string, input: EvalCaseInput): Promise<EvalCase> {
  return db
    .insertInto('eval_cases')
    .values({ eval_set_id: evalSetId, ...evalCaseColumns(input) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Adds many cases to an eval set in one statement (bulk seeding); the answer's order is not promised. */
export async function insertEvalCases(
  db: Db,
  evalSetId: string,
  inputs: readonly EvalCaseInput[],
): Promise<EvalCase[]> {
  if (!inputs.length) return [];
  return db
    .insertInto('eval_cases')
    .values(inputs.map((input) => ({ eval_set_id: evalSetId, ...evalCaseColumns(input) })))
    .returningAll()
    .execute();
}

/**
 * Adds a case unless the set already holds `maxCases`; the set's row is locked for the count, so two concurrent
 * inserts cannot both take the last place. Answers the stored case, or the count that filled the set.
 */
export async function insertEvalCaseWithinLimit(
  db: Db,
  evalSetId: string,
  input: EvalCaseInput,
  maxCases: number,
): Promise<{ inserted: EvalCase } | { full: number }> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('eval_sets').select('id').where('id', '=', evalSetId).forUpdate().executeTakeFirst();
    const { count } = await trx
      .selectFrom('eval_cases')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('eval_set_id', '=', evalSetId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= maxCases) return { full: Number(count) };
    return { inserted: await insertEvalCase(trx, evalSetId, input) };
  });
}

/** A set's cases in creation order. */
export async function listEvalCases(db: Db, evalSetId: string, page: PageParams): Promise<Page<EvalCase>> {
  const query = db.selectFrom('eval_cases').selectAll().where('eval_set_id', '=', evalSetId);
  return keysetPage(query, OLDEST_FIRST, page);
}

/** One case of a set. */
export async function findEvalCase(db: Db, evalSetId: string, id: string): Promise<EvalCase | undefined> {
  return db
    .selectFrom('eval_cases')
    .selectAll()
    .where('eval_set_id', '=', evalSetId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A case by id alone, for scoring (the run already tied it to its set). */
export async function findEvalCaseById(db: Db, id: string): Promise<EvalCase | undefined> {
  return db.selectFrom('eval_cases').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The cases with the given ids that exist, by id (one query). */
export async function findEvalCasesByIds(db: Db, ids: readonly string[]): Promise<Map<string, EvalCase>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('eval_cases')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Replaces the fields of a case. */
export async function updateEvalCase(db: Db, id: string, input: EvalCaseInput): Promise<EvalCase> {
  return db
    .updateTable('eval_cases')
    .set({ ...evalCaseColumns(input), updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a case (results already stored keep its name). */
export async function deleteEvalCase(db: Db, id: string): Promise<void> {
  await db.deleteFrom('eval_cases').where('id', '=', id).execute();
}

/** Which of `ids` are cases of the set. */
export async function existingCaseIds(db: Db, evalSetId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('eval_cases')
    .select('id')
    .where('eval_set_id', '=', evalSetId)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** The cases of the set whose id or name is one of `refs` (one query, one array parameter per column). */
export async function findCasesByIdOrName(
  db: Db,
  evalSetId: string,
  refs: readonly string[],
): Promise<Array<{ id: string; name: string }>> {
  if (refs.length === 0) return [];
  const ids = refs.filter(isUuid);
  return db
    .selectFrom('eval_cases')
    .select(['id', 'name'])
    .where('eval_set_id', '=', evalSetId)
    .where((eb) =>
      eb.or([eb('name', '=', sql<string>`ANY(${[...refs]}::text[])`), eb('id', '=', sql<string>`ANY(${ids}::uuid[])`)]),
    )
    .execute();
}
