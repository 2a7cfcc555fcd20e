import { upsertCrmContact } from '../../db/crm-contact.repository';
import type { Db } from '../../db/database';
import { insertOutboundMessage } from '../../db/outbound-message.repository';
import type { AgentRun } from '../../db/tables/agent-run.table';
import {
  crmUpdateContactArgs,
  invalidArgumentsMessage,
  sendMessageArgs,
  type BuiltinToolName,
} from '../../domain/agent/agent-tools';
import type { ToolExecution } from './tool-execution';

/** Runs a built-in tool for real (production): the contact is written to the CRM, the message to the outbox. */
export async function runBuiltinTool(
  db: Db,
  run: AgentRun,
  name: BuiltinToolName,
  args: Record<string, unknown>,
  key: string,
): Promise<ToolExecution> {
  const real = { args, simulated: false, replayed: false };
  if (name === 'crm_update_contact') {
    const parsed = crmUpdateContactArgs.safeParse(args);
    if (!parsed.success) return { ...real, error: invalidArgumentsMessage(name, parsed.error) };
    const { created } = await upsertCrmContact(db, run.workspace_id, run.id, parsed.data);
    return { ...real, result: { status: created ? 'created' : 'updated', contact_id: parsed.data.contact_id } };
  }
  const parsed = sendMessageArgs.safeParse(args);
  if (!parsed.success) return { ...real, error: invalidArgumentsMessage(name, parsed.error) };
  const { id } = await insertOutboundMessage(db, {
    workspace_id: run.workspace_id,
    agent_id: run.agent_id,
    agent_run_id: run.id,
    call_key: key,
    channel: parsed.data.channel,
    recipient: parsed.data.to,
    body: parsed.data.text,
  });
  return { ...real, result: { status: 'sent', message_id: id, channel: parsed.data.channel, to: parsed.data.to } };
}
