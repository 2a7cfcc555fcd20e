import { sql } from 'kysely';
import { LIMITS } from '../domain/limits';
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

// Rounds of eviction one store makes at most: the first evicts enough in all but rare cases (entries much smaller
// than the average when over the byte budget); a bound left over is caught by the next store.
const EVICTION_ROUNDS = 4;

/** How many of the oldest entries to evict so `usage` is within `bound` entries and `byteBudget` bytes (0: within). */
function entriesToEvict(usage: { entries: number; bytes: number }, bound: number, byteBudget: number): number {
  const overBytes = usage.bytes - byteBudget;
  // Over the byte budget: as many entries of the average size as make up the excess.
  const forBytes = overBytes > 0 ? Math.ceil(overBytes / (usage.bytes / usage.entries)) : 0;
  return Math.max(usage.entries - bound, forBytes, 0);
}

/**
 * Caches a usable reply under `key` unless one is cached already (the first stays: invalidation is by key only), and
 * then keeps the workspace's cache within `bound` entries and `byteBudget` bytes by evicting its oldest. The counts
 * are read from `judge_cache_usage` and the oldest found from the end of the creation-time index, so a store reads
 * about as many rows as it evicts (usually one) however full the cache is. Concurrent stores may leave it a few
 * entries over until the next store; it never grows without bound.
 */
export async function storeCachedVerdict(
  db: Db,
  workspaceId: string,
  key: string,
  reply: CachedJudgeReply,
  bound: number,
  byteBudget: number = LIMITS.judgeCacheBytesPerWorkspace,
): Promise<void> {
  const inserted = await db
    .insertInto('judge_verdict_cache')
    .values({ workspace_id: workspaceId, key, reply: JSON.stringify(reply) })
    .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!inserted) return;
  for (let round = 0; round < EVICTION_ROUNDS; round++) {
    const usage = await db
      .selectFrom('judge_cache_usage')
      .select(['entries', 'bytes'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    const evict = usage ? entriesToEvict({ entries: usage.entries, bytes: Number(usage.bytes) }, bound, byteBudget) : 0;
    if (evict === 0 || (await evictOldest(db, workspaceId, evict)) === 0) return;
  }
}

async function evictOldest(db: Db, workspaceId: string, count: number): Promise<number> {
  const result = await sql`
    DELETE FROM judge_verdict_cache c
    USING (
      SELECT key FROM judge_verdict_cache WHERE workspace_id = ${workspaceId}::uuid
      ORDER BY created_at, key LIMIT ${count}::int
    ) oldest
    WHERE c.workspace_id = ${workspaceId}::uuid AND c.key = oldest.key`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
