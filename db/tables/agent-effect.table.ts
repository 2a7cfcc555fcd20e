import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;

/** A CRM contact as the built-in `crm_update_contact` tool writes it in production runs. */
export interface CrmContactTable {
  id: Generated<string>;
  workspace_id: string;
  contact_id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  notes: string | null;
  updated_by_run: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, never, Date>;
}

/** A message the built-in `messaging_send_message` tool sent in a production run. */
export interface OutboundMessageTable {
  id: Generated<string>;
  workspace_id: string;
  agent_id: string;
  agent_run_id: string;
  call_key: string;
  channel: string;
  recipient: string;
  body: string;
  created_at: CreatedAt;
}
