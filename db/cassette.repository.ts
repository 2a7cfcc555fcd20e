import { sql } from 'kysely';
import type { Db } from './database';
import type { CassetteEntry } from '../domain/eval/cassette';
import { LIMITS } from '../domain/limits';

const ENTRY_COLUMNS = ['tool_name', 'server', 'tool_args', 'response'] as const;

/** A set's whole cassette in recording order (at most `cassetteEntriesPerSet`). */
export async function listCassetteEntries(db: Db, evalSetId: string): Promise<CassetteEntry[]> {
  return db
    .selectFrom('cassette_entries')
    .select(ENTRY_COLUMNS)
    .where('eval_set_id', '=', evalSetId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(LIMITS.cassetteEntriesPerSet)
    .execute();
}

/** The entries of one tool of one server in a set's cassette, in recording order. */
export async function listToolCassetteEntries(
  db: Db,
  evalSetId: string,
  tool: { name: string; server: string },
): Promise<CassetteEntry[]> {
  return db
    .selectFrom('cassette_entries')
    .select(ENTRY_COLUMNS)
    .where('eval_set_id', '=', evalSetId)
    .where('tool_name', '=', tool.name)
    .where('server', '=', tool.server)
    .orderBy('created_at')
    .orderBy('id')
    .limit(LIMITS.cassetteEntriesPerSet)
    .execute();
}

const entryValues = (evalSetId: string, entry: CassetteEntry) => ({
  eval_set_id: evalSetId,
  tool_name: entry.tool_name,
  server: entry.server,
  tool_args: JSON.stringify(entry.tool_args),
  response: JSON.stringify(entry.response),
});

/**
 * Records one response: a call recorded before gets the new response; a new one is added unless the cassette is full
 * (the set's row is locked for the count). Answers whether it was recorded.
 */
export async function recordCassetteEntry(db: Db, evalSetId: string, entry: CassetteEntry): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('eval_sets').select('id').where('id', '=', evalSetId).forUpdate().executeTakeFirst();
    const values = entryValues(evalSetId, entry);
    const updated = await trx
      .updateTable('cassette_entries')
      .set({ response: values.response })
      .where('eval_set_id', '=', evalSetId)
      .where('tool_name', '=', entry.tool_name)
      .where('server', '=', entry.server)
      .where(sql<string>`md5(tool_args::text)`, '=', sql<string>`md5(${values.tool_args}::jsonb::text)`)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return true;
    const { count } = await trx
      .selectFrom('cassette_entries')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('eval_set_id', '=', evalSetId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= LIMITS.cassetteEntriesPerSet) return false;
    await trx.insertInto('cassette_entries').values(values).execute();
    return true;
  });
}

/** Replaces a set's cassette with the given entries (an import); a call given twice keeps its last response. */
export async function replaceCassette(db: Db, evalSetId: string, entries: readonly CassetteEntry[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('cassette_entries').where('eval_set_id', '=', evalSetId).execute();
    for (const entry of entries)
      await trx
        .insertInto('cassette_entries')
        .values(entryValues(evalSetId, entry))
        .onConflict((oc) =>
          oc
            .expression(sql`eval_set_id, tool_name, server, md5(tool_args::text)`)
            .doUpdateSet({ response: (eb) => eb.ref('excluded.response') }),
        )
        .execute();
  });
}

/** The eval set whose cassette a live run's sandbox answers from and records into. */
export async function findCassetteSet(db: Db, evalRunId: string): Promise<string | undefined> {
  const row = await db.selectFrom('eval_runs').select('eval_set_id').where('id', '=', evalRunId).executeTakeFirst();
  return row?.eval_set_id;
}
