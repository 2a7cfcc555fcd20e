import type { ColumnType } from 'kysely';
import type { Json } from './json-column';

/** A usable judge reply as the cache keeps it: the content the verdict was parsed from and what the call cost. */
export interface CachedJudgeReply {
  content: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** One cached judge verdict of a workspace; `key` is the SHA-256 (hex) of provider, endpoint, model, prompt and sample
 * index; `bytes` is the reply's size as Postgres writes it out (generated). */
export interface JudgeVerdictCacheTable {
  workspace_id: string;
  key: string;
  reply: Json<CachedJudgeReply>;
  bytes: ColumnType<number, never, never>;
  created_at: ColumnType<Date, never, never>;
}

/** A workspace's cached entries and their bytes, kept by triggers on `judge_verdict_cache` (bigint `bytes` as text). */
export interface JudgeCacheUsageTable {
  workspace_id: ColumnType<string, never, never>;
  entries: ColumnType<number, never, never>;
  bytes: ColumnType<string, never, never>;
}
