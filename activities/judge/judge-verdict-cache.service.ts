import { createHash } from 'node:crypto';
import { findCachedVerdicts, storeCachedVerdict } from '../../db/judge-verdict-cache.repository';
import type { CachedJudgeReply } from '../../db/tables/judge-verdict-cache.table';
import type { RunJudge } from '../../db/tables/eval-run.table';
import type { JudgeMessage } from '../../domain/scoring/judge-prompts';
import { jsonBytes } from '../../domain/limit-checks';
import { LIMITS } from '../../domain/limits';
import { logError } from '../../lib/logger';
import type { ActivityDeps } from '../platform/activity-deps';

/** How many judge samples of a case the cache answered, and how many it could not (judged afresh). */
export interface JudgeCacheCounts {
  hits: number;
  misses: number;
}

/** The judge verdict cache of one workspace and judge, as a case's judge session uses it. */
export interface VerdictCache {
  /** The key of sample `sampleIndex` (absolute: the offset of the call plus its index) of a prompt. */
  key(messages: readonly JudgeMessage[], sampleIndex: number): string;
  /** The cached replies under `keys`, by key. */
  lookup(keys: readonly string[]): Promise<Map<string, CachedJudgeReply>>;
  /** Caches a usable reply (one whose verdict parsed) within `LIMITS.judgeReplyBytes`; the first reply under a key
   * stays. Never throws: a reply that could not be cached is logged, and the verdict it holds counts all the same. */
  store(key: string, reply: CachedJudgeReply): Promise<void>;
}

/** The judge a verdict came from: its provider, the endpoint it was asked at (the integration's base URL), its model. */
export interface JudgeEndpoint {
  provider: RunJudge['provider'];
  baseUrl: string;
  model: string;
}

/**
 * The SHA-256 (hex) of what decides a verdict: the judge's provider, endpoint and model, the exact prompt messages and
 * the absolute sample index. The key holds no secret and the prompt is not stored: only this hash of it.
 */
export function verdictKey(judge: JudgeEndpoint, messages: readonly JudgeMessage[], sampleIndex: number): string {
  const asked = messages.map((m) => [m.role, m.content]);
  const material = JSON.stringify([judge.provider, judge.baseUrl, judge.model, asked, sampleIndex]);
  return createHash('sha256').update(material).digest('hex');
}

/**
 * The cache of a workspace for a run's judge at the endpoint `baseUrl()` answers (read per key: a renewed connection
 * may point elsewhere), bounded at `LIMITS.judgeCacheEntriesPerWorkspace` entries and `judgeCacheBytesPerWorkspace`.
 */
export function verdictCache(
  deps: Pick<ActivityDeps, 'db' | 'logger'>,
  workspaceId: string,
  judge: RunJudge,
  baseUrl: () => string,
): VerdictCache {
  return {
    key: (messages, sampleIndex) =>
      verdictKey({ provider: judge.provider, baseUrl: baseUrl(), model: judge.model }, messages, sampleIndex),
    lookup: (keys) => findCachedVerdicts(deps.db, workspaceId, keys),
    async store(key, reply) {
      if (jsonBytes(reply) > LIMITS.judgeReplyBytes) return;
      try {
        await storeCachedVerdict(deps.db, workspaceId, key, reply, LIMITS.judgeCacheEntriesPerWorkspace);
      } catch (error) {
        // The call was paid for and its verdict is good: failing the case over the cache would only spend another.
        deps.logger.warn({ ...logError(error), workspace_id: workspaceId }, 'judge verdict not cached');
      }
    },
  };
}
