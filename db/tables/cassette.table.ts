import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json } from './json-column';

/** One recorded tool response of an eval set's cassette; at most one per (set, tool, server, arguments). */
export interface CassetteEntryTable {
  id: Generated<string>;
  eval_set_id: string;
  tool_name: string;
  server: string;
  tool_args: Json<Record<string, unknown>>;
  response: Json<unknown>;
  created_at: ColumnType<Date, never, never>;
}

export type CassetteEntryRow = Selectable<CassetteEntryTable>;
