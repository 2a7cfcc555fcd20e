import { z } from 'zod';
import { listAuditEvents } from '../../db/audit.repository';
import type { AuditEvent } from '../../db/tables/audit-event.table';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';

const text = (description: string): z.ZodOptional<z.ZodString> =>
  z.string().min(1).max(300).optional().meta({ description });
const time = (description: string): z.ZodOptional<z.ZodPipe<z.ZodISODateTime, z.ZodTransform<Date, string>>> =>
  z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .optional()
    .meta({ description });

const auditQuery = pageQuery
  .extend({
    actor_id: z.uuid().optional().meta({ description: 'Only entries of this user or service token.' }),
    action: text('Only this action, e.g. `DELETE /api/ai-agents/:agent`.'),
    resource_type: text('Only entries on this kind of resource, e.g. `eval-sets`.'),
    resource_id: text('Only entries on this resource id (or name, as the path gave it).'),
    since: time('Only entries at or after this time (ISO 8601 with an offset).'),
    until: time('Only entries before this time (ISO 8601 with an offset).'),
  })
  .refine((q) => !q.since || !q.until || q.since < q.until, { path: ['until'], message: 'must be after since' });

const auditEventJson = z.object({
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
function toAuditEventJson(row: AuditEvent): z.infer<typeof auditEventJson> {
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

/** The audit trail of the current workspace: who changed what, newest first. */
export const auditRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/workspaces/current/audit',
    summary: "The workspace's audit trail, newest first (one entry per state-changing request)",
    tag: 'audit',
    permission: 'audit:view',
    query: auditQuery,
    response: dataPageJson(auditEventJson),
    handler: async ({ query, auth, deps }) => {
      const { limit, cursor, ...filters } = query as z.infer<typeof auditQuery>;
      return dataPage(
        { limit, cursor },
        (page) => listAuditEvents(deps.db, auth.workspaceId, filters, page),
        toAuditEventJson,
      );
    },
  }),
];
