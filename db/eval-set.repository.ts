import type { Db } from './database';
import { BY_NAME, keysetPage, type Page, type PageParams } from './keyset-page';
import { isUuid } from './column-values';
import type { MinScores } from '../domain/scoring/criteria';
import type { EvalSet } from './tables/eval-set.table';
import type { SimulatorSettings } from '../domain/eval/simulator-settings';

/** The stored fields of an eval set; `min_scores` is always complete (defaults resolved). */
export interface EvalSetInput {
  name: string;
  description: string;
  min_scores: MinScores;
  judge_samples: number;
  /** Absent: kept as it is (an insert: null, the defaults). */
  simulator?: SimulatorSettings | null;
}

// The stored columns of an input: jsonb as JSON strings, an absent simulator left as it is.
function columnsOf({ simulator, ...input }: EvalSetInput) {
  const columns = { ...input, min_scores: JSON.stringify(input.min_scores) };
  return simulator === undefined ? columns : { ...columns, simulator: simulator && JSON.stringify(simulator) };
}

/** Creates an eval set for an agent. */
export async function insertEvalSet(
  db: Db,
  agent: { id: string; workspace_id: string },
  input: EvalSetInput,
): Promise<EvalSet> {
  return db
    .insertInto('eval_sets')
    .values({
      workspace_id: agent.workspace_id,
      agent_id: agent.id,
      ...columnsOf(input),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An agent's eval sets by name. */
export async function listEvalSets(db: Db, agentId: string, page: PageParams): Promise<Page<EvalSet>> {
  const query = db.selectFrom('eval_sets').selectAll().where('agent_id', '=', agentId);
  return keysetPage(query, BY_NAME, page);
}

/** An agent's eval set by id or by name. */
export async function findEvalSet(db: Db, agentId: string, idOrName: string): Promise<EvalSet | undefined> {
  return db
    .selectFrom('eval_sets')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where((eb) =>
      isUuid(idOrName) ? eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]) : eb('name', '=', idOrName),
    )
    .executeTakeFirst();
}

/** Updates an eval set with complete new values. */
export async function updateEvalSet(db: Db, id: string, input: EvalSetInput): Promise<EvalSet> {
  return db
    .updateTable('eval_sets')
    .set({ ...columnsOf(input), updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes an eval set with its cases and runs. */
export async function deleteEvalSet(db: Db, id: string): Promise<void> {
  await db.deleteFrom('eval_sets').where('id', '=', id).execute();
}
