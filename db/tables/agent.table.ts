import type { ColumnType, Generated, Selectable } from 'kysely';

type Json = ColumnType<unknown, string, string>;

export interface AgentTable {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  model: string;
  instructions: string;
  settings: ColumnType<unknown, string | undefined, string>;
  published_version: number | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface AgentVersionTable {
  agent_id: string;
  version: number;
  model: string;
  instructions: string;
  settings: Json;
  published_at: ColumnType<Date, never, never>;
}

export type Agent = Selectable<AgentTable>;
export type AgentVersion = Selectable<AgentVersionTable>;
