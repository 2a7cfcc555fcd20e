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
  /** Made by an invitation (`POST …/members` for an unknown e-mail): the inviter held their first token. */
  invited: Generated<boolean>;
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
  /** The one workspace the token acts in (an invitation's token and those minted with it); null: every membership. */
  scope_workspace_id: Generated<string | null>;
  /** The scoped token that minted this one: revoking it revokes this one too. */
  minted_by: Generated<string | null>;
  name: string;
  token_hash: string;
  prefix: string;
  created_at: Generated<CreatedAt>;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** A one-time claim of a person to a workspace they were added to: redeemed with a token of their own. */
export interface InvitationClaimTable {
  workspace_id: string;
  user_id: string;
  /** SHA-256 of the code; the code itself is shown once, to the inviter, who passes it on. */
  code_hash: string;
  created_at: Generated<CreatedAt>;
  expires_at: Date;
  claimed_at: Date | null;
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
