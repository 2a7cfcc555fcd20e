import { z } from 'zod';
import { listAuditEvents } from '../../db/audit.repository';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';
import { auditEventJson, toAuditEventJson } from '../json/audit-event.json';

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
