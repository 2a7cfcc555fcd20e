import { z } from 'zod';
import type { AuditEvent } from '../../db/tables/audit-event.table';

export const auditEventJson = z.object({
  id: z.string(),
  at: z.string(),
  actor_type: z.enum(['user', 'service_token']),
  actor_id: z.string(),
  action: z.string(),
  resource_type: z.string().nullable(),
  resource_id: z.string().nullable(),
  outcome: z.enum(['success', 'denied', 'failed']),
  status: z.number().int(),
  request_id: z.string(),
});

/** The API shape of an audit entry. */
export function toAuditEventJson(row: AuditEvent): z.infer<typeof auditEventJson> {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor_type: row.actor_type,
    actor_id: row.actor_id,
    action: row.action,
    resource_type: row.resource_type,
    resource_id: row.resource_id,
    outcome: row.outcome,
    status: row.status,
    request_id: row.request_id,
  };
}
