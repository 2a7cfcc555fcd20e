import type { ColumnType } from 'kysely';
import type { Json } from './json-column';

/** A usable judge reply as the cache keeps it: the content the verdict was parsed from and what the call cost. */
export interface CachedJudgeReply {
  content: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** One cached judge verdict of a workspace; `key` is the SHA-256 (hex) of provider, model, prompt and sample index. */
export interface JudgeVerdictCacheTable {
  workspace_id: string;
  key: string;
  reply: Json<CachedJudgeReply>;
  created_at: ColumnType<Date, never, never>;
}
