import type { ColumnType } from 'kysely';

/** Ciphertext of the embedded credential store: AES-256-GCM, never the plain value. */
export interface CredentialTable {
  workspace_id: string;
  credential_id: string;
  nonce: Buffer;
  ciphertext: Buffer;
  auth_tag: Buffer;
  updated_at: ColumnType<Date, never, Date>;
}
