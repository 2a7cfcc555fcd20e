import type { Kysely } from 'kysely';

// Lists page by keyset on (created_at, id): each index below serves "rows of one parent after this key" directly,
// and replaces the (parent, created_at) index it extends.
const KEYSET_INDEXES = [
  { table: 'conversations', parent: 'agent_id', replaces: 'conversations_agent_created_idx' },
  { table: 'eval_cases', parent: 'eval_set_id', replaces: 'eval_cases_set_created_idx' },
  { table: 'eval_runs', parent: 'eval_set_id', replaces: 'eval_runs_set_created_idx' },
];

/** Indexes for keyset pages of the lists that grow without a small bound (conversations, cases, runs). */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { table, parent, replaces } of KEYSET_INDEXES) {
    await db.schema.createIndex(`${table}_keyset_idx`).on(table).columns([parent, 'created_at', 'id']).execute();
    await db.schema.dropIndex(replaces).execute();
  }
}
