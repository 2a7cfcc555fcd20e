import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;

export interface WorkspaceTable {
  id: Generated<string>;
  name: string;
  created_at: Generated<CreatedAt>;
  /** Set when the workspace is deleted: from then on it is unusable, and a workflow removes its rows and secrets. */
  deleted_at: Date | null;
}

export interface UserTable {
  id: Generated<string>;
  email: string;
  name: string;
  /** Instance-level: may use the Temporal UI's remote codec, which decrypts every workspace's payloads. */
  operator: Generated<boolean>;
  created_at: Generated<CreatedAt>;
}

export interface MembershipTable {
  workspace_id: string;
  user_id: string;
  role: string;
  created_at: Generated<CreatedAt>;
}

export interface ApiTokenTable {
  id: Generated<string>;
  user_id: string;
  default_workspace_id: string;
  name: string;
  token_hash: string;
  prefix: string;
  created_at: Generated<CreatedAt>;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export interface ServiceTokenTable {
  id: Generated<string>;
  workspace_id: string;
  name: string;
  role: string;
  token_hash: string;
  prefix: string;
  created_by: string | null;
  created_at: Generated<CreatedAt>;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export type Workspace = Selectable<WorkspaceTable>;
export type ApiToken = Selectable<ApiTokenTable>;
export type ServiceToken = Selectable<ServiceTokenTable>;
