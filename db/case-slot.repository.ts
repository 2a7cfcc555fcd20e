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

// Two acquirers that pick the same free slot at once: one gets it, the other tries another free one.
const RACE_ATTEMPTS = 3;

// The lease's end by the database's clock: every worker compares against the same one.
const leaseEnd = (leaseMs: number) => sql<Date>`now() + make_interval(secs => ${leaseMs / 1000}::float8)`;

/**
 * Takes one of the run's workspace's slots 0 … cap-1 for the case, for `leaseMs`, in one statement: a holder that
 * already has one extends it (a retried acquire takes no second slot); otherwise a random free or lapsed slot is
 * claimed, and the slot's key stops two cases from holding it together. Undefined when the run does not exist.
 */
export async function acquireCaseSlot(
  db: Db,
  holder: CaseSlotHolder,
  cap: number,
  leaseMs: number,
): Promise<SlotAcquisition | undefined> {
  for (let attempt = 1; ; attempt++) {
    const { rows } = await sql<{ run_exists: boolean; acquired: boolean; had_free: boolean; held: number }>`
      WITH run AS (SELECT workspace_id FROM eval_runs WHERE id = ${holder.runId}),
      mine AS (
        UPDATE case_slots SET expires_at = ${leaseEnd(leaseMs)}
        WHERE run_id = ${holder.runId} AND case_id = ${holder.caseId}
        RETURNING slot
      ),
      live AS (
        SELECT slot FROM case_slots WHERE workspace_id = (SELECT workspace_id FROM run) AND expires_at > now()
      ),
      free AS (
        SELECT s FROM generate_series(0, ${cap - 1}::int) AS s
        WHERE NOT EXISTS (SELECT 1 FROM mine) AND s NOT IN (SELECT slot FROM live)
        ORDER BY random() LIMIT 1
      ),
      taken AS (
        INSERT INTO case_slots (workspace_id, slot, run_id, case_id, expires_at)
        SELECT run.workspace_id, free.s, ${holder.runId}, ${holder.caseId}, ${leaseEnd(leaseMs)} FROM run, free
        ON CONFLICT (workspace_id, slot) DO UPDATE
          SET run_id = excluded.run_id, case_id = excluded.case_id, expires_at = excluded.expires_at
          WHERE case_slots.expires_at <= now()
        RETURNING slot
      )
      SELECT EXISTS (SELECT 1 FROM run) AS run_exists,
        EXISTS (SELECT 1 FROM mine) OR EXISTS (SELECT 1 FROM taken) AS acquired,
        EXISTS (SELECT 1 FROM free) AS had_free,
        (SELECT count(*)::int FROM live) + (SELECT count(*)::int FROM taken) AS held`.execute(db);
    const [row] = rows;
    if (!row.run_exists) return undefined;
    if (row.acquired || !row.had_free || attempt === RACE_ATTEMPTS) return { acquired: row.acquired, held: row.held };
  }
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
