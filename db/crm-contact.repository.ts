import { sql } from 'kysely';
import type { Db } from './database';

/** The fields `crm_update_contact` sets on a contact. */
export interface CrmContactInput {
  contact_id: string;
  name?: string;
  email?: string;
  phone?: string;
  notes?: string;
}

/** Creates or updates a workspace's contact; fields left out keep their value. Answers whether it was created. */
export async function upsertCrmContact(
  db: Db,
  workspaceId: string,
  runId: string,
  input: CrmContactInput,
): Promise<{ created: boolean }> {
  const fields = { name: input.name, email: input.email, phone: input.phone, notes: input.notes };
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const row = await db
    .insertInto('crm_contacts')
    .values({ workspace_id: workspaceId, contact_id: input.contact_id, ...given, updated_by_run: runId })
    .onConflict((oc) =>
      oc
        .columns(['workspace_id', 'contact_id'])
        .doUpdateSet({ ...given, updated_by_run: runId, updated_at: sql<Date>`now()` }),
    )
    .returning(sql<boolean>`xmax = 0`.as('created'))
    .executeTakeFirstOrThrow();
  return { created: row.created };
}
