import crypto from 'node:crypto';
import type { Db } from '../../db/database';
import type { AuditEvent } from '../../db/tables/audit-event.table';

/** Every audit entry a request wrote (in any workspace), found by the request id the test gave it. */
export async function auditRowsOf(db: Db, requestId: string): Promise<AuditEvent[]> {
  return db.selectFrom('audit_events').selectAll().where('request_id', '=', requestId).execute();
}

/** How many audit entries there are in all. */
export async function auditRowCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A request id no other request has (X-Request-Id accepts `[\w.-]{1,64}`). */
export const freshRequestId = (): string => `audit-test-${crypto.randomBytes(8).toString('hex')}`;

/** A route's path with each `:param` filled with a fresh UUID (no resource has it, so nothing real is touched). */
export function filledPath(template: string): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = template.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    params[name] = crypto.randomUUID();
    return params[name];
  });
  return { path, params };
}

/** The outcome an entry must record for an HTTP status. */
export const expectedOutcome = (status: number): string =>
  status < 400 ? 'success' : status === 403 ? 'denied' : 'failed';
