import { storeCachedVerdict } from '../db/judge-verdict-cache.repository';
import { harness } from '../test/helpers/harness';
import { fillJudgeCache, SHORT_REPLY } from '../test/helpers/judge-cache-fill';
import { createTenant } from '../test/helpers/tenants';

const SIZES = [10, 100_000];

/**
 * `npm run bench -- judge-cache`: a workspace's judge verdict cache full at 10 and at 100,000 entries, then
 * `BENCH_CACHE_STORES` (200) stores one after another, each evicting the oldest entry: the median time of a store at
 * each size, and their ratio (1.0: eviction costs the same however full the cache is).
 */
export async function judgeCacheBench(): Promise<void> {
  const stores = Number(process.env.BENCH_CACHE_STORES ?? 200);
  const { db } = await harness();
  const medians: number[] = [];
  for (const size of SIZES) {
    const { workspaceId } = await createTenant(db, 'owner');
    await fillJudgeCache(db, workspaceId, size);
    const times: number[] = [];
    for (let i = 0; i < stores; i++) {
      const started = process.hrtime.bigint();
      await storeCachedVerdict(db, workspaceId, `bench-${i}`, SHORT_REPLY, size);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    times.sort((a, b) => a - b);
    medians.push(times[Math.floor(times.length / 2)]);
    console.log(`  full at ${size} entries: ${stores} stores, median ${medians.at(-1)?.toFixed(2)} ms a store`);
  }
  console.log(`judge cache: a store at 100,000 entries / at 10 = ${(medians[1] / medians[0]).toFixed(2)}`);
}
