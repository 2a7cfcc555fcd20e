import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import type { AgentTable, AgentVersionTable } from './tables/agent.table';
import type { CredentialTable } from './tables/credential.table';
import type { ApiTokenTable, MembershipTable, UserTable, WorkspaceTable } from './tables/tenancy.table';

/** Every table Assay keeps in Postgres. */
export interface Database {
  workspaces: WorkspaceTable;
  users: UserTable;
  memberships: MembershipTable;
  api_tokens: ApiTokenTable;
  agents: AgentTable;
  agent_versions: AgentVersionTable;
  credentials: CredentialTable;
}

export type Db = Kysely<Database>;

/** Opens a pooled Kysely instance on a Postgres URL. */
export function createDb(url: string, max = 10): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: url, max }) }) });
}
