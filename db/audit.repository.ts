import type { Insertable } from 'kysely';
import type { Db } from './database';
import { keysetPage, type KeysetOrder, type Page, type PageParams } from './keyset-page';
import type { AuditEvent, AuditEventTable } from './tables/audit-event.table';

/** Newest first by `(at, id)`: each filter's index ends in those two columns. */
const AUDIT_ORDER: KeysetOrder = {
  keys: [
    { ref: 'at', kind: 'time' },
    { ref: 'id', kind: 'uuid' },
  ],
  direction: 'desc',
};

/** What a reader of a workspace's trail may narrow it by; every field optional. */
export interface AuditFilters {
  actor_id?: string;
  action?: string;
  resource_type?: string;
  resource_id?: string;
  since?: Date;
  until?: Date;
}

/** Writes one audit entry. */
export async function insertAuditEvent(db: Db, event: Insertable<AuditEventTable>): Promise<void> {
  await db.insertInto('audit_events').values(event).execute();
}

/** Writes several audit entries in one statement (the gateway batches its calls' entries). */
export async function insertAuditEvents(db: Db, events: Insertable<AuditEventTable>[]): Promise<void> {
  if (events.length > 0) await db.insertInto('audit_events').values(events).execute();
}

/** One page of a workspace's trail, newest first; `since` is inclusive, `until` exclusive. */
export async function listAuditEvents(
  db: Db,
  workspaceId: string,
  filters: AuditFilters,
  page: PageParams,
): Promise<Page<AuditEvent>> {
  let query = db.selectFrom('audit_events').selectAll().where('workspace_id', '=', workspaceId);
  for (const column of ['actor_id', 'action', 'resource_type', 'resource_id'] as const) {
    const value = filters[column];
    if (value !== undefined) query = query.where(column, '=', value);
  }
  if (filters.since) query = query.where('at', '>=', filters.since);
  if (filters.until) query = query.where('at', '<', filters.until);
  return keysetPage(query, AUDIT_ORDER, page);
}

/** Deletes up to `batch` entries older than `before`; answers how many went (fewer than `batch`: none are left). */
export async function purgeAuditEvents(db: Db, before: Date, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_events')
    .where('id', 'in', (eb) => eb.selectFrom('audit_events').select('id').where('at', '<', before).limit(batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
