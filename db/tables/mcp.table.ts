import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ToolDefinition, ToolStatus } from '../../domain/mcp/tool-approval';
import type { ToolParameter } from '../../domain/mcp/tool-parameters';
import type { Json, NullableJson } from './json-column';
type CreatedAt = ColumnType<Date, never, never>;

/** A server's non-secret configuration: the url and headers whose values may be `$SECRET` references. */
export interface McpServerConfig {
  url?: string;
  headers?: Record<string, string>;
}
type UpdatedAt = ColumnType<Date, never, Date>;

/** A catalog entry: global (workspace_id null) or restricted to one workspace; stdio entries carry argv and env. */
export interface McpCatalogEntryTable {
  id: Generated<string>;
  workspace_id: string | null;
  name: string;
  label: string;
  category: string;
  image: string;
  description: string;
  transport: string;
  config_schema: Json<Record<string, unknown>>;
  required_secrets: Json<string[]>;
  command: NullableJson<string[]>;
  env: NullableJson<Record<string, string>>;
  source: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A registered MCP server; its secrets live in the credential vault under `credential_id`, never here. */
export interface McpServerTable {
  id: Generated<string>;
  workspace_id: string;
  catalog_id: string | null;
  name: string;
  transport: string;
  config: Json<McpServerConfig>;
  status: string;
  credential_id: string;
  secret_names: Json<string[]>;
  last_test: NullableJson<Record<string, unknown>>;
  last_error: string | null;
  synced_at: Date | null;
  health_check_interval_seconds: ColumnType<number, number | undefined, number>;
  health_failures: ColumnType<number, never, number>;
  health_restore_status: ColumnType<string | null, never, string | null>;
  /** OAuth servers: their grant; the client id when pre-registered and the scopes asked for (secrets: vault only). */
  auth_type: ColumnType<McpAuthType | null, McpAuthType | null | undefined, McpAuthType | null>;
  oauth_client_id: ColumnType<string | null, string | null | undefined, string | null>;
  oauth_scopes: ColumnType<string | null, string | null | undefined, string | null>;
  /** When config or secret were last replaced (the gateway's upstream sessions opened before are closed). */
  config_changed_at: UpdatedAt;
  /** The scope the server asked for with 403 `insufficient_scope` while it waits for authorization; else null. */
  oauth_step_up_scope: ColumnType<string | null, never, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** How an http server authenticates beyond its headers: OAuth with a person's consent, or machine-to-machine. */
export type McpAuthType = 'oauth' | 'oauth_client_credentials';

/** A pending authorization: the hash of the `state` it was sent with, whom it binds, until when; used once. */
export interface McpOauthStateTable {
  state_hash: string;
  workspace_id: string;
  server_id: string;
  user_id: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
}

/** One scheduled health check of a server (the last `mcpHealthChecksKept` are kept). */
export interface McpHealthCheckTable {
  id: Generated<string>;
  server_id: string;
  status: 'connected' | 'error';
  latency_ms: number | null;
  message: string | null;
  checked_at: CreatedAt;
}

/** A tool descriptor persisted by the last sync: flattened parameters plus the raw input schema. */
export interface McpToolTable {
  id: Generated<string>;
  server_id: string;
  name: string;
  description: string;
  parameters: Json<ToolParameter[]>;
  input_schema: Json<unknown>;
  /** The tool's declared output schema; null when it declares none. */
  output_schema: ColumnType<unknown, string | null | undefined, string | null>;
  /** The definition hash (name, title, description, schemas, annotations) of what the last sync listed. */
  hash: string;
  title: string | null;
  annotations: NullableJson<Record<string, unknown>>;
  icons: NullableJson<unknown[]>;
  /** Only approved tools are usable by flows, agent runs and the gateway (a link may opt into auto-approval). */
  status: ColumnType<ToolStatus, ToolStatus | undefined, ToolStatus>;
  /** The hash and definition when last approved (the approval diff's old side); null: never approved. */
  approved_hash: string | null;
  approved_definition: NullableJson<ToolDefinition>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A link's override of one tool in the gateway. */
export interface ToolOverride {
  timeout_ms?: number;
  read_only?: boolean;
}

/** An agent's link to a server; `sandbox_real_calls` lets live eval runs call it for real (off by default). */
export interface AgentMcpServerTable {
  agent_id: string;
  mcp_server_id: string;
  enabled: boolean;
  sandbox_real_calls: ColumnType<boolean, boolean | undefined, boolean>;
  /** Live eval runs record this server's real responses into the eval set's cassette. */
  record_cassette: ColumnType<boolean, boolean | undefined, boolean>;
  /** This agent's runs and gateway session also use the server's quarantined tools (their newest definitions). */
  auto_approve: ColumnType<boolean, boolean | undefined, boolean>;
  /** The gateway's allowlist of upstream tool names; `["*"]`: every tool. */
  tools: ColumnType<string[], string | undefined, string>;
  /** What the gateway puts before each tool name; null: `<server name>__` ("" allowed). */
  tool_prefix: ColumnType<string | null, string | null | undefined, string | null>;
  /** Per upstream tool: the gateway's call timeout and a `read_only` mark. */
  tool_overrides: ColumnType<Record<string, ToolOverride>, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type McpCatalogEntry = Selectable<McpCatalogEntryTable>;
export type McpServer = Selectable<McpServerTable>;
export type McpTool = Selectable<McpToolTable>;
export type McpHealthCheck = Selectable<McpHealthCheckTable>;
export type McpOauthState = Selectable<McpOauthStateTable>;
export type AgentMcpServer = Selectable<AgentMcpServerTable>;
