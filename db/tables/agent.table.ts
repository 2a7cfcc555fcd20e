import type { ColumnType, Generated, Selectable } from 'kysely';

/** What the gateway records of each call of an agent (`metadata`: no arguments or results). */
export type GatewayCapture = 'metadata' | 'full';

type Json = ColumnType<unknown, string, string>;

export interface AgentTable {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  model: string;
  instructions: string;
  settings: ColumnType<unknown, string | undefined, string>;
  published_version: number | null;
  /** What the MCP gateway records of the agent's calls: names, sizes, latency and outcome, or arguments and results too. */
  gateway_capture: ColumnType<GatewayCapture, GatewayCapture | undefined, GatewayCapture>;
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
