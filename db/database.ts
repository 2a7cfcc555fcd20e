import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import type { AuditEventTable } from './tables/audit-event.table';
import type { CrmContactTable, OutboundMessageTable } from './tables/agent-effect.table';
import type { AgentRunTable } from './tables/agent-run.table';
import type { AgentTable, AgentVersionTable } from './tables/agent.table';
import type { ConversationTable } from './tables/conversation.table';
import type { CaseJudgeCallTable, CaseSlotTable } from './tables/case-slot.table';
import type { CassetteEntryTable } from './tables/cassette.table';
import type { CredentialTable } from './tables/credential.table';
import type { CaseResultTable, EvalRunTable } from './tables/eval-run.table';
import type { EvalCaseTable, EvalSetTable } from './tables/eval-set.table';
import type { FlowRunTable, FlowTable } from './tables/flow.table';
import type { JudgeCacheUsageTable, JudgeVerdictCacheTable } from './tables/judge-verdict-cache.table';
import type { ModelPriceTable } from './tables/model-price.table';
import type {
  AgentMcpServerTable,
  McpCatalogEntryTable,
  McpHealthCheckTable,
  McpOauthStateTable,
  McpServerTable,
  McpToolTable,
} from './tables/mcp.table';
import type { IntegrationTable, WorkspaceSettingsTable } from './tables/workspace-settings.table';
import type {
  ApiTokenTable,
  InvitationClaimTable,
  MembershipTable,
  ServiceTokenTable,
  UserTable,
  WorkspaceTable,
} from './tables/tenancy.table';

/** Every table Assay keeps in Postgres. */
export interface Database {
  workspaces: WorkspaceTable;
  users: UserTable;
  memberships: MembershipTable;
  api_tokens: ApiTokenTable;
  invitation_claims: InvitationClaimTable;
  service_tokens: ServiceTokenTable;
  agents: AgentTable;
  agent_versions: AgentVersionTable;
  credentials: CredentialTable;
  conversations: ConversationTable;
  eval_sets: EvalSetTable;
  eval_cases: EvalCaseTable;
  cassette_entries: CassetteEntryTable;
  eval_runs: EvalRunTable;
  case_results: CaseResultTable;
  workspace_settings: WorkspaceSettingsTable;
  integrations: IntegrationTable;
  mcp_catalog_entries: McpCatalogEntryTable;
  mcp_servers: McpServerTable;
  mcp_tools: McpToolTable;
  mcp_health_checks: McpHealthCheckTable;
  mcp_oauth_states: McpOauthStateTable;
  agent_mcp_servers: AgentMcpServerTable;
  flows: FlowTable;
  flow_runs: FlowRunTable;
  agent_runs: AgentRunTable;
  crm_contacts: CrmContactTable;
  outbound_messages: OutboundMessageTable;
  case_slots: CaseSlotTable;
  case_judge_calls: CaseJudgeCallTable;
  model_prices: ModelPriceTable;
  audit_events: AuditEventTable;
  judge_verdict_cache: JudgeVerdictCacheTable;
  judge_cache_usage: JudgeCacheUsageTable;
}

export type Db = Kysely<Database>;

/** Opens a pooled Kysely instance on a Postgres URL. */
export function createDb(url: string, max = 10): Db {
  const pool = new Pool({ connectionString: url, max });
  // An idle client dropped by the server (restart, failover) is discarded by the pool; without a listener it would crash us.
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
