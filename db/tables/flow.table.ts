import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json } from './json-column';
type CreatedAt = ColumnType<Date, never, never>;

/** A node of kind `mcp.call_tool`, as stored in a flow. */
export interface McpCallToolNode {
  id: string;
  kind: 'mcp.call_tool';
  mcp_server_id: string;
  tool_name: string;
  parameters: Record<string, unknown>;
}

/** What one node of a run produced. */
export interface FlowNodeResult {
  status: 'completed' | 'failed';
  arguments?: Record<string, unknown>;
  output?: unknown;
  error?: string;
  finished_at: string;
}

/** A flow: an ordered list of nodes (for now `mcp.call_tool`). */
export interface FlowTable {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  nodes: Json<McpCallToolNode[]>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, never, Date>;
}

/** One run of a flow: its variables and, per node id, the recorded result. */
export interface FlowRunTable {
  id: Generated<string>;
  flow_id: string;
  workspace_id: string;
  status: string;
  variables: Json<Record<string, unknown>>;
  node_results: ColumnType<Record<string, FlowNodeResult>, string | undefined, string>;
  error: string | null;
  created_at: CreatedAt;
  started_at: Date | null;
  finished_at: Date | null;
}

export type Flow = Selectable<FlowTable>;
export type FlowRun = Selectable<FlowRunTable>;
