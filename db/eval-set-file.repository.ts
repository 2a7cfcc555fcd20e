import type { Db } from './database';
import { evalCaseColumns, insertEvalCases } from './eval-case.repository';
import type { LocatedCase } from '../domain/eval/eval-set-file.reader';
import { planCaseImport, type ImportPlan, type StoredCase } from '../domain/eval/eval-set-import';
import type { FieldProblem } from '../domain/field-problems';

// A multi-row insert binds 12 parameters a case; Postgres takes at most 65,535 in one statement.
const INSERT_CHUNK = 1_000;
const unpromoted = { source_run_id: null, snapshot: null };

/** Every case of a set (a set holds at most `casesPerEvalSet`), the fields a file holds plus the id. */
export async function allEvalCases(db: Db, evalSetId: string): Promise<StoredCase[]> {
  return db
    .selectFrom('eval_cases')
    .select([
      'id',
      'name',
      'session_input',
      'expected_trajectory',
      'trajectory_match',
      'expected_final_response',
      'rubrics',
      'turns',
      'state',
      'final_state',
      'conversation_scenario',
      'tool_mocks',
      'tool_use_rubrics',
    ])
    .where('eval_set_id', '=', evalSetId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** What an import did, or why it did nothing. */
export type CaseImportOutcome =
  | { imported: Pick<ImportPlan, 'unchanged'> & { created: number; updated: number } }
  | { problems: FieldProblem[] }
  | { full: { existing: number; created: number } };

/**
 * Upserts cases by name in one transaction, all or nothing. The set's row is locked while the plan is made and
 * applied, so two imports of one set run one after the other and the set never grows past `maxCases`. An update
 * replaces the file's fields only: a promoted case keeps its `source_run_id` and snapshot.
 */
export async function importEvalCases(
  db: Db,
  evalSetId: string,
  incoming: readonly LocatedCase[],
  maxCases: number,
): Promise<CaseImportOutcome> {
  return db.transaction().execute(async (trx) => importEvalCasesIn(trx, evalSetId, () => incoming, maxCases));
}

/**
 * The import inside a transaction the caller holds (to write more in it): locks the set's row, then reads its cases
 * and makes the incoming cases from them (`incoming` may depend on what the set holds).
 */
export async function importEvalCasesIn(
  trx: Db,
  evalSetId: string,
  incomingFrom: (existing: readonly StoredCase[]) => readonly LocatedCase[],
  maxCases: number,
): Promise<CaseImportOutcome> {
  await trx.selectFrom('eval_sets').select('id').where('id', '=', evalSetId).forUpdate().executeTakeFirst();
  const existing = await allEvalCases(trx, evalSetId);
  const plan = planCaseImport(existing, incomingFrom(existing));
  if ('problems' in plan) return plan;
  if (existing.length + plan.create.length > maxCases)
    return { full: { existing: existing.length, created: plan.create.length } };
  const rows = plan.create.map((fields) => ({ ...fields, ...unpromoted }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK)
    await insertEvalCases(trx, evalSetId, rows.slice(i, i + INSERT_CHUNK));
  for (const { id, fields } of plan.update) {
    const { source_run_id: _run, snapshot: _snapshot, ...columns } = evalCaseColumns({ ...fields, ...unpromoted });
    await trx
      .updateTable('eval_cases')
      .set({ ...columns, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }
  return { imported: { created: plan.create.length, updated: plan.update.length, unchanged: plan.unchanged } };
}
