import { sql } from 'kysely';
import type { Db } from './database';
import type { CachedJudgeReply } from './tables/judge-verdict-cache.table';

/** The cached replies of a workspace under the given keys, by key (one query; keys not cached are absent). */
export async function findCachedVerdicts(
  db: Db,
  workspaceId: string,
  keys: readonly string[],
): Promise<Map<string, CachedJudgeReply>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('judge_verdict_cache')
    .select(['key', 'reply'])
    .where('workspace_id', '=', workspaceId)
    .where('key', 'in', [...keys])
    .execute();
  return new Map(rows.map((row) => [row.key, row.reply]));
}

/**
 * Caches a usable reply under `key` unless one is cached already (the first stays: invalidation is by key only), and
 * then keeps the workspace's cache at `bound` entries by evicting its oldest. Concurrent inserts may leave it a few
 * entries over until the next insert; it never grows without bound.
 */
export async function storeCachedVerdict(
  db: Db,
  workspaceId: string,
  key: string,
  reply: CachedJudgeReply,
  bound: number,
): Promise<void> {
  const inserted = await db
    .insertInto('judge_verdict_cache')
    .values({ workspace_id: workspaceId, key, reply: JSON.stringify(reply) })
    .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!inserted) return;
  await sql`
    DELETE FROM judge_verdict_cache
    WHERE workspace_id = ${workspaceId}::uuid
      AND (created_at, key) < (
        SELECT created_at, key FROM judge_verdict_cache WHERE workspace_id = ${workspaceId}::uuid
        ORDER BY created_at DESC, key DESC OFFSET ${bound - 1}::int LIMIT 1
      )`.execute(db);
}
