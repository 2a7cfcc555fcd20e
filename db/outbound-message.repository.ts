import type { Selectable } from 'kysely';
import type { Db } from './database';
import type { OutboundMessageTable } from './tables/agent-effect.table';

/** A message `messaging_send_message` sends. */
export type OutboundMessageInput = Omit<Selectable<OutboundMessageTable>, 'id' | 'created_at'>;

/** Records a sent message once per (run, call): a retried call answers the id of the message already sent. */
export async function insertOutboundMessage(db: Db, input: OutboundMessageInput): Promise<{ id: string }> {
  await db
    .insertInto('outbound_messages')
    .values(input)
    .onConflict((oc) => oc.columns(['agent_run_id', 'call_key']).doNothing())
    .execute();
  return db
    .selectFrom('outbound_messages')
    .select('id')
    .where('agent_run_id', '=', input.agent_run_id)
    .where('call_key', '=', input.call_key)
    .executeTakeFirstOrThrow();
}
