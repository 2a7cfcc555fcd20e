import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

const id = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder => c.primaryKey().defaultTo(sql`gen_random_uuid()`);
const now = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder => c.notNull().defaultTo(sql`now()`);
const jsonArray = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder => c.notNull().defaultTo(sql`'[]'::jsonb`);

/** Agent runs (runtime state per workflow), the built-in CRM and messaging effects, and run facts on conversations. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('conversations')
    .addColumn('latency_ms', 'integer')
    .addColumn('agent_version', 'integer')
    .addColumn('stop_reason', 'text')
    .execute();

  // One row per agent-run workflow (`key` is its workflow id), so a retried activity finds the state it left.
  await db.schema
    .createTable('agent_runs')
    .addColumn('id', 'uuid', id)
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('agent_id', 'uuid', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('agent_version', 'integer', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('production', 'sandbox')`))
    .addColumn('eval_run_id', 'uuid', (c) => c.references('eval_runs.id').onDelete('cascade'))
    .addColumn('eval_case_id', 'uuid')
    .addColumn('session_input', 'jsonb', (c) => c.notNull())
    .addColumn('settings', 'jsonb', (c) => c.notNull())
    .addColumn('tools', 'jsonb', jsonArray)
    .addColumn('replay_calls', 'jsonb', jsonArray)
    .addColumn('replay_used', 'jsonb', jsonArray)
    .addColumn('messages', 'jsonb', jsonArray)
    .addColumn('steps', 'jsonb', jsonArray)
    .addColumn('tool_calls', 'jsonb', jsonArray)
    .addColumn('started_calls', 'jsonb', jsonArray)
    .addColumn('guardrail_events', 'jsonb', jsonArray)
    .addColumn('token_usage', 'jsonb', (c) => c.notNull())
    .addColumn('final_response', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'completed', 'failed')`))
    .addColumn('error', 'text')
    .addColumn('conversation_id', 'uuid', (c) => c.references('conversations.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('agent_runs_eval_run_idx').on('agent_runs').column('eval_run_id').execute();

  await db.schema
    .createTable('crm_contacts')
    .addColumn('id', 'uuid', id)
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('contact_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('notes', 'text')
    .addColumn('updated_by_run', 'uuid')
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    .addUniqueConstraint('crm_contacts_workspace_contact_key', ['workspace_id', 'contact_id'])
    .execute();

  // (agent_run_id, call_key) makes a retried send a no-op instead of a second message.
  await db.schema
    .createTable('outbound_messages')
    .addColumn('id', 'uuid', id)
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('agent_id', 'uuid', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('agent_run_id', 'uuid', (c) => c.notNull().references('agent_runs.id').onDelete('cascade'))
    .addColumn('call_key', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', now)
    .addUniqueConstraint('outbound_messages_run_call_key', ['agent_run_id', 'call_key'])
    .execute();
}
