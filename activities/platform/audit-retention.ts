import { purgeAuditEvents } from '../../db/audit.repository';
import type { Db } from '../../db/database';
import type { Logger } from '../../lib/logger';

/** Rows deleted per statement: a purge of a long-neglected trail never holds one huge delete. */
const PURGE_BATCH = 1000;

/** What the purge needs: Postgres, and how long an entry is kept. */
export interface AuditRetentionDeps {
  db: Db;
  logger: Logger;
  retentionDays: number;
}

/** Deletes audit entries older than the retention; answers how many (concurrent passes delete disjoint rows or none). */
export async function purgeExpiredAuditEvents(deps: AuditRetentionDeps): Promise<number> {
  const before = new Date(Date.now() - deps.retentionDays * 86_400_000);
  let deleted = 0;
  for (let batch = PURGE_BATCH; batch === PURGE_BATCH; deleted += batch) {
    batch = await purgeAuditEvents(deps.db, before, PURGE_BATCH);
  }
  if (deleted > 0) deps.logger.info({ deleted, before: before.toISOString() }, 'audit entries purged');
  return deleted;
}
