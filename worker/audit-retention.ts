import { purgeAuditEvents } from '../db/audit.repository';
import type { Db } from '../db/database';
import { logError, type Logger } from '../lib/logger';
import { every, type Periodic } from './periodic';

/** Rows deleted per statement: a purge of a long-neglected trail never holds one huge delete. */
const PURGE_BATCH = 1000;
/** How often each worker purges: entries are kept by the day, so an hour late is no matter. */
export const AUDIT_PURGE_INTERVAL_MS = 60 * 60_000;

/** What the purge needs: Postgres, and how long an entry is kept. */
export interface AuditRetentionDeps {
  db: Db;
  logger: Logger;
  retentionDays: number;
  intervalMs?: number;
}

/** A running purge; `purge()` runs one pass now (answers how many entries it deleted). */
export interface AuditRetention extends Periodic {
  purge(): Promise<number>;
}

/** Deletes audit entries older than the retention, hourly on every worker (concurrent passes delete disjoint rows or none). */
export function startAuditRetention(deps: AuditRetentionDeps): AuditRetention {
  const purge = async (): Promise<number> => {
    const before = new Date(Date.now() - deps.retentionDays * 86_400_000);
    let deleted = 0;
    for (let batch = PURGE_BATCH; batch === PURGE_BATCH; deleted += batch) {
      batch = await purgeAuditEvents(deps.db, before, PURGE_BATCH);
    }
    if (deleted > 0) deps.logger.info({ deleted, before: before.toISOString() }, 'audit entries purged');
    return deleted;
  };
  const periodic = every(deps.intervalMs ?? AUDIT_PURGE_INTERVAL_MS, purge, (error) =>
    deps.logger.warn(logError(error), 'audit purge failed; retrying next time'),
  );
  return { purge, stop: periodic.stop };
}
