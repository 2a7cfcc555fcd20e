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
}

const CREDENTIAL_ID = /^[a-z][a-z0-9_-]*:[A-Za-z0-9_.-]{1,128}$/;

/** Rejects ids that could escape their path in a KV store. */
export function assertCredentialRef(ref: CredentialRef): void {
  if (!isUuid(ref.workspaceId)) throw new Error('credential workspace id must be a UUID');
  if (!CREDENTIAL_ID.test(ref.credentialId)) throw new Error('credential id must look like kind:name');
}
