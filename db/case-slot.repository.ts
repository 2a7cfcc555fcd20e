import { sql } from 'kysely';
import type { Db } from './database';

/** One case of one run: the holder of a slot. */
export interface CaseSlotHolder {
  runId: string;
  caseId: string;
}

/** What acquiring a slot found: whether the holder has one now, and how many of the workspace's slots are held. */
export interface SlotAcquisition {
  acquired: boolean;
  held: number;
}

// Should an acquirer still meet a slot taken under it, it tries the other free ones again.
const RACE_ATTEMPTS = 3;

// The lease's end by the database's clock: every worker compares against the same one.
const leaseEnd = (leaseMs: number) => sql<Date>`now() + make_interval(secs => ${leaseMs / 1000}::float8)`;

/** What acquiring slots for several holders of one run found: which of them hold one now, and how many are held. */
export interface SlotsAcquisition {
  holders: string[];
  held: number;
}

/**
 * Takes one of the run's workspace's slots 0 … cap-1 for each of the run's `caseIds` (holders), for `leaseMs`, in one
 * statement: a holder that already has one extends it (a retried acquire takes no second slot); the others claim
 * random free or lapsed slots, in the order given, while any are free; the slot's key stops two holders from holding
 * it together. Acquirers of one workspace take turns (a transaction-scoped advisory lock): two multi-row claims racing
 * for the same free slots would otherwise wait on each other's rows in opposite orders, a deadlock Postgres only breaks
 * after `deadlock_timeout` (a second) by failing one of them. Undefined when the run does not exist.
 */
export async function acquireCaseSlots(
  db: Db,
  runId: string,
  caseIds: readonly string[],
  cap: number,
  leaseMs: number,
): Promise<SlotsAcquisition | undefined> {
  for (let attempt = 1; ; attempt++) {
    const { rows } = await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext('case-slots:' || workspace_id::text))
        FROM eval_runs WHERE id = ${runId}`.execute(trx);
      return sql<{ run_exists: boolean; holders: string[]; short: boolean; held: number }>`
      WITH run AS (SELECT workspace_id FROM eval_runs WHERE id = ${runId}),
      wanted AS (SELECT case_id, ord FROM unnest(${[...caseIds]}::uuid[]) WITH ORDINALITY AS w(case_id, ord)),
      mine AS (
        UPDATE case_slots SET expires_at = ${leaseEnd(leaseMs)}
        WHERE run_id = ${runId} AND case_id IN (SELECT case_id FROM wanted)
        RETURNING case_id, slot
      ),
      live AS (
        SELECT slot FROM case_slots WHERE workspace_id = (SELECT workspace_id FROM run) AND expires_at > now()
      ),
      needy AS (
        SELECT case_id, row_number() OVER (ORDER BY ord) AS n FROM wanted
        WHERE case_id NOT IN (SELECT case_id FROM mine)
      ),
      free AS (
        SELECT s, row_number() OVER (ORDER BY random()) AS n FROM generate_series(0, ${cap - 1}::int) AS s
        WHERE s NOT IN (SELECT slot FROM live) AND s NOT IN (SELECT slot FROM mine)
      ),
      taken AS (
        INSERT INTO case_slots (workspace_id, slot, run_id, case_id, expires_at)
        SELECT run.workspace_id, free.s, ${runId}, needy.case_id, ${leaseEnd(leaseMs)} FROM run, needy JOIN free USING (n)
        ON CONFLICT (workspace_id, slot) DO UPDATE
          SET run_id = excluded.run_id, case_id = excluded.case_id, expires_at = excluded.expires_at
          WHERE case_slots.expires_at <= now()
        RETURNING case_id
      )
      SELECT EXISTS (SELECT 1 FROM run) AS run_exists,
        ARRAY(SELECT case_id::text FROM mine UNION ALL SELECT case_id::text FROM taken) AS holders,
        (SELECT count(*) FROM taken) < least((SELECT count(*) FROM needy), (SELECT count(*) FROM free)) AS short,
        (SELECT count(*)::int FROM live) + (SELECT count(*)::int FROM taken) AS held`.execute(trx);
    });
    const [row] = rows;
    if (!row.run_exists) return undefined;
    if (!row.short || attempt === RACE_ATTEMPTS) return { holders: row.holders, held: row.held };
  }
}

/**
 * Takes one of the run's workspace's slots for the case, for `leaseMs` (or extends the one it has): `acquireCaseSlots`
 * for one holder. Undefined when the run does not exist.
 */
export async function acquireCaseSlot(
  db: Db,
  holder: CaseSlotHolder,
  cap: number,
  leaseMs: number,
): Promise<SlotAcquisition | undefined> {
  const found = await acquireCaseSlots(db, holder.runId, [holder.caseId], cap, leaseMs);
  return found && { acquired: found.holders.length > 0, held: found.held };
}

/**
 * Extends a held lease; true when the holder still had one. Never re-creates a lease: a renewal that arrives after the
 * release (or after the lease lapsed and its slot went to another case) must not take a slot the cap no longer allows.
 */
export async function renewCaseSlot(db: Db, holder: CaseSlotHolder, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('case_slots')
    .set({ expires_at: leaseEnd(leaseMs) })
    .where('run_id', '=', holder.runId)
    .where('case_id', '=', holder.caseId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives the holder's slot back; releasing a slot not held changes nothing. */
export async function releaseCaseSlot(db: Db, holder: CaseSlotHolder): Promise<void> {
  await db.deleteFrom('case_slots').where('run_id', '=', holder.runId).where('case_id', '=', holder.caseId).execute();
}

/** Extends the held leases of several holders of one run; answers the holders that still had one (see `renewCaseSlot`). */
export async function renewCaseSlots(
  db: Db,
  runId: string,
  caseIds: readonly string[],
  leaseMs: number,
): Promise<string[]> {
  if (caseIds.length === 0) return [];
  const rows = await db
    .updateTable('case_slots')
    .set({ expires_at: leaseEnd(leaseMs) })
    .where('run_id', '=', runId)
    .where('case_id', 'in', [...caseIds])
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('case_id')
    .execute();
  return rows.map((row) => row.case_id);
}

/** Gives back the slots of several holders of one run; releasing slots not held changes nothing. */
export async function releaseCaseSlots(db: Db, runId: string, caseIds: readonly string[]): Promise<void> {
  if (caseIds.length === 0) return;
  await db
    .deleteFrom('case_slots')
    .where('run_id', '=', runId)
    .where('case_id', 'in', [...caseIds])
    .execute();
}

/** Whether any of the run's `caseIds` holds a slot whose lease has not lapsed. */
export async function anyCaseSlotHeld(db: Db, runId: string, caseIds: readonly string[]): Promise<boolean> {
  if (caseIds.length === 0) return false;
  const row = await db
    .selectFrom('case_slots')
    .select('case_id')
    .where('run_id', '=', runId)
    .where('case_id', 'in', [...caseIds])
    .where('expires_at', '>', sql<Date>`now()`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
