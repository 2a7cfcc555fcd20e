import { sql } from 'kysely';
import type { Db } from './database';

/** One case of one run: the holder of a slot. */
export interface CaseSlotHolder {
  runId: string;
  caseId: string;
}

/** What acquiring a slot found: whether the holder has one now, and how many the workspace holds with it. */
export interface SlotAcquisition {
  acquired: boolean;
  held: number;
}

// The lease's end by the database's clock: every worker compares against the same one.
const leaseEnd = (leaseMs: number) => sql<Date>`now() + make_interval(secs => ${leaseMs / 1000}::float8)`;

/**
 * Takes one of the run's workspace's `cap` slots for the case, for `leaseMs`; a holder that already has one extends it
 * (a retried acquire takes no second slot). Acquirers of one workspace queue on a transaction-scoped advisory lock,
 * so counting and inserting cannot interleave and the cap is exact; expired leases are dropped first.
 */
export async function acquireCaseSlot(
  db: Db,
  holder: CaseSlotHolder,
  cap: number,
  leaseMs: number,
): Promise<SlotAcquisition | undefined> {
  return db.transaction().execute(async (trx) => {
    const run = await trx
      .selectFrom('eval_runs')
      .select('workspace_id')
      .where('id', '=', holder.runId)
      .executeTakeFirst();
    if (!run) return undefined;
    const workspaceId = run.workspace_id;
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`assay:case-slots:${workspaceId}`}, 0))`.execute(trx);
    const expiresAt = leaseEnd(leaseMs);
    await trx
      .deleteFrom('case_slots')
      .where('workspace_id', '=', workspaceId)
      .where('expires_at', '<=', sql<Date>`now()`)
      .execute();
    const { held } = await trx
      .selectFrom('case_slots')
      .select((eb) => eb.fn.countAll<string>().as('held'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    const extended = await trx
      .updateTable('case_slots')
      .set({ expires_at: expiresAt })
      .where('run_id', '=', holder.runId)
      .where('case_id', '=', holder.caseId)
      .executeTakeFirst();
    if (extended.numUpdatedRows > 0n) return { acquired: true, held: Number(held) };
    if (Number(held) >= cap) return { acquired: false, held: Number(held) };
    await trx
      .insertInto('case_slots')
      .values({ run_id: holder.runId, case_id: holder.caseId, workspace_id: workspaceId, expires_at: expiresAt })
      .execute();
    return { acquired: true, held: Number(held) + 1 };
  });
}

/**
 * Extends a held lease; true when the holder still had one. Never re-creates a lease: a renewal that arrives after the
 * release (or after the lease expired and its slot went to another case) must not take a slot the cap no longer allows.
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
