import { isUuid } from '../../db/column-values';

/** Where a credential lives: a workspace and an id such as `mcp-server:<name>` or `integration:<provider>`. */
export interface CredentialRef {
  workspaceId: string;
  credentialId: string;
}

/** Stores secret values by reference; nothing else in Assay ever holds them at rest. */
export interface CredentialVault {
  readonly backend: 'vault' | 'local';
  put(ref: CredentialRef, value: string): Promise<void>;
  get(ref: CredentialRef): Promise<string | null>;
  delete(ref: CredentialRef): Promise<void>;
  /**
   * Deletes up to `limit` of a workspace's credentials (every version) and answers how many it deleted: 0 once none
   * is left. Called in a loop when a workspace is deleted, so no call holds more than one page.
   */
  deleteWorkspacePage(workspaceId: string, limit: number): Promise<number>;
}

const CREDENTIAL_ID = /^[a-z][a-z0-9_-]*:[A-Za-z0-9_.-]{1,128}$/;

/** Rejects a workspace id that is not a UUID (it becomes part of a KV path). */
export function assertWorkspaceId(workspaceId: string): void {
  if (!isUuid(workspaceId)) throw new Error('credential workspace id must be a UUID');
}

/** Rejects ids that could escape their path in a KV store. */
export function assertCredentialRef(ref: CredentialRef): void {
  assertWorkspaceId(ref.workspaceId);
  if (!CREDENTIAL_ID.test(ref.credentialId)) throw new Error('credential id must look like kind:name');
}
