import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { CachedJudgeReply } from '../../db/tables/judge-verdict-cache.table';

/** A short judge reply, as the cache keeps it. */
export const SHORT_REPLY: CachedJudgeReply = {
  content: '{"equivalent": true}',
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

/**
 * Fills a workspace's judge verdict cache with `size` entries in one statement (keys `fill-000001` on, oldest first,
 * 1 ms apart), then refreshes the planner's statistics, as a cache filled over weeks would have them.
 */
export async function fillJudgeCache(db: Db, workspaceId: string, size: number): Promise<void> {
  await sql`
    INSERT INTO judge_verdict_cache (workspace_id, key, reply, created_at)
    SELECT ${workspaceId}::uuid, 'fill-' || lpad(i::text, 6, '0'), ${JSON.stringify(SHORT_REPLY)}::jsonb,
           now() - (${size + 1}::int - i) * interval '1 ms'
    FROM generate_series(1, ${size}::int) AS i`.execute(db);
  await sql`ANALYZE judge_verdict_cache`.execute(db);
}
