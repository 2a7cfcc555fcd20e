import { sql, type Kysely } from 'kysely';

/**
 * The judge verdict cache: one usable judge reply per workspace and key (the SHA-256 of provider, judge model, the
 * exact prompt messages and the absolute sample index), so an unchanged case in a re-run costs no judge call. The
 * reply holds the judge's content and token usage, never a key or the prompt. Runs may opt out (`no_cache`), and each
 * result counts the samples the cache answered (`judge_cache_hits`) and those it did not (`judge_cache_misses`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('judge_verdict_cache')
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('reply', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('judge_verdict_cache_pk', ['workspace_id', 'key'])
    .execute();
  // The bound per workspace evicts the oldest entries first: they are found from this end of the index.
  await db.schema
    .createIndex('judge_verdict_cache_age_idx')
    .on('judge_verdict_cache')
    .columns(['workspace_id', 'created_at', 'key'])
    .execute();
  await db.schema
    .alterTable('eval_runs')
    .addColumn('no_cache', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('case_results')
    .addColumn('judge_cache_hits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('judge_cache_misses', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('case_results').dropColumn('judge_cache_hits').dropColumn('judge_cache_misses').execute();
  await db.schema.alterTable('eval_runs').dropColumn('no_cache').execute();
  await db.schema.dropTable('judge_verdict_cache').execute();
}
