import { sql, type Kysely } from 'kysely';

/**
 * The judge verdict cache is bounded in bytes as well as entries, and its key holds the judge's endpoint. Each entry
 * carries its size (`bytes`, the reply as Postgres writes it out); `judge_cache_usage` keeps each workspace's entries
 * and bytes, so a store knows at once whether it is over a bound and evicts just the oldest entries it must, through
 * the creation-time index: the same few rows whether the cache holds 10 entries or 100,000. Statement triggers keep
 * the counts, so every way rows come and go (a store, an eviction, a purge, a cascade, a TRUNCATE) counts alike.
 * Entries under the old key can never be hit again, so they go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM judge_verdict_cache`.execute(db);
  await sql`
    ALTER TABLE judge_verdict_cache
    ADD COLUMN bytes integer GENERATED ALWAYS AS (octet_length(reply::text)) STORED`.execute(db);
  await db.schema
    .createTable('judge_cache_usage')
    .addColumn('workspace_id', 'uuid', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .execute();
  await sql`
    CREATE FUNCTION judge_cache_entries_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO judge_cache_usage (workspace_id, entries, bytes)
      SELECT workspace_id, count(*), sum(bytes) FROM added GROUP BY workspace_id
      ON CONFLICT (workspace_id) DO UPDATE
        SET entries = judge_cache_usage.entries + excluded.entries, bytes = judge_cache_usage.bytes + excluded.bytes;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION judge_cache_entries_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE judge_cache_usage u SET entries = u.entries - r.entries, bytes = u.bytes - r.bytes
      FROM (SELECT workspace_id, count(*) AS entries, sum(bytes) AS bytes FROM removed GROUP BY workspace_id) r
      WHERE u.workspace_id = r.workspace_id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION judge_cache_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM judge_cache_usage;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER judge_cache_emptied AFTER TRUNCATE ON judge_verdict_cache
    FOR EACH STATEMENT EXECUTE FUNCTION judge_cache_emptied()`.execute(db);
  await sql`
    CREATE TRIGGER judge_cache_entries_added AFTER INSERT ON judge_verdict_cache
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION judge_cache_entries_added()`.execute(db);
  await sql`
    CREATE TRIGGER judge_cache_entries_removed AFTER DELETE ON judge_verdict_cache
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION judge_cache_entries_removed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER judge_cache_emptied ON judge_verdict_cache`.execute(db);
  await sql`DROP FUNCTION judge_cache_emptied()`.execute(db);
  await sql`DROP TRIGGER judge_cache_entries_removed ON judge_verdict_cache`.execute(db);
  await sql`DROP TRIGGER judge_cache_entries_added ON judge_verdict_cache`.execute(db);
  await sql`DROP FUNCTION judge_cache_entries_removed()`.execute(db);
  await sql`DROP FUNCTION judge_cache_entries_added()`.execute(db);
  await db.schema.dropTable('judge_cache_usage').execute();
  await db.schema.alterTable('judge_verdict_cache').dropColumn('bytes').execute();
}
