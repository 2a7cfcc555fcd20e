import { sql, type Kysely } from 'kysely';

const id = sql`gen_random_uuid()`;
const now = sql`now()`;
const emptyArray = sql`'[]'::jsonb`;

/** Conversations, eval sets and cases, eval runs and case results, the workspace judge model and integrations. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(id))
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('agent_id', 'uuid', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('session_input', 'jsonb', (c) => c.notNull())
    .addColumn('messages', 'jsonb', (c) => c.notNull().defaultTo(emptyArray))
    .addColumn('tool_calls', 'jsonb', (c) => c.notNull().defaultTo(emptyArray))
    .addColumn('final_response', 'text', (c) => c.notNull())
    .addColumn('guardrail_events', 'jsonb', (c) => c.notNull().defaultTo(emptyArray))
    .addColumn('model', 'text')
    .addColumn('token_usage', 'jsonb')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source IN ('imported', 'live', 'sandbox')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('conversations_agent_created_idx')
    .on('conversations')
    .columns(['agent_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('eval_sets')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(id))
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('agent_id', 'uuid', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('min_scores', 'jsonb', (c) => c.notNull())
    .addColumn('judge_samples', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`judge_samples BETWEEN 1 AND 9`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('eval_sets_agent_name_key', ['agent_id', 'name'])
    .execute();

  await db.schema
    .createTable('eval_cases')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(id))
    .addColumn('eval_set_id', 'uuid', (c) => c.notNull().references('eval_sets.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('session_input', 'jsonb', (c) => c.notNull())
    .addColumn('expected_trajectory', 'jsonb')
    .addColumn('expected_final_response', 'text')
    .addColumn('rubrics', 'jsonb')
    .addColumn('source_run_id', 'uuid', (c) => c.references('conversations.id').onDelete('set null'))
    .addColumn('snapshot', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  // Runs walk a set's cases by id (keyset pages); listings order by creation.
  await db.schema.createIndex('eval_cases_set_id_idx').on('eval_cases').columns(['eval_set_id', 'id']).execute();
  await db.schema
    .createIndex('eval_cases_set_created_idx')
    .on('eval_cases')
    .columns(['eval_set_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('eval_runs')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(id))
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('agent_id', 'uuid', (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('eval_set_id', 'uuid', (c) => c.notNull().references('eval_sets.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('queued', 'running', 'completed', 'failed')`))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('run_selection', 'text', (c) => c.notNull())
    .addColumn('conversations', 'jsonb')
    .addColumn('min_scores', 'jsonb', (c) => c.notNull())
    .addColumn('judge_samples', 'integer', (c) => c.notNull())
    .addColumn('judge', 'jsonb')
    .addColumn('total_cases', 'integer')
    .addColumn('scored_cases', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('summary', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('eval_runs_set_created_idx')
    .on('eval_runs')
    .columns(['eval_set_id', 'created_at'])
    .execute();

  // case_id carries no foreign key: a result outlives a case deleted later, and keeps the case's name.
  await db.schema
    .createTable('case_results')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(id))
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('eval_runs.id').onDelete('cascade'))
    .addColumn('case_id', 'uuid', (c) => c.notNull())
    .addColumn('case_name', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'uuid', (c) => c.references('conversations.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('passed', 'failed', 'error')`))
    .addColumn('criteria', 'jsonb', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('judge_usage', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('case_results_run_case_key', ['run_id', 'case_id'])
    .execute();

  await db.schema
    .createTable('workspace_settings')
    .addColumn('workspace_id', 'uuid', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('judge_model', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  // The key itself lives in the credential vault under credential_id; only a masked hint is kept here.
  await db.schema
    .createTable('integrations')
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text')
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('integrations_pk', ['workspace_id', 'provider'])
    .execute();
}
