import type { ColumnType, Generated, Selectable } from 'kysely';

/** Who did what to which resource, and how it ended: one row per state-changing request. */
export interface AuditEventTable {
  id: Generated<string>;
  at: ColumnType<Date, never, never>;
  workspace_id: string;
  actor_type: 'user' | 'service_token';
  actor_id: string;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  outcome: 'success' | 'denied' | 'failed';
  status: number;
  request_id: string;
}

export type AuditEvent = Selectable<AuditEventTable>;
