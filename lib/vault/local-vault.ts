import crypto from 'node:crypto';
import type { Db } from '../../db/database';
import { assertCredentialRef, assertWorkspaceId, type CredentialRef, type CredentialVault } from './credential-vault';

const ALGORITHM = 'aes-256-gcm';

// The row's identity is the additional authenticated data, so a ciphertext copied to another row fails to open.
function aad(ref: CredentialRef): Buffer {
  return Buffer.from(`${ref.workspaceId}/${ref.credentialId}`);
}

/** Embedded credential store: AES-256-GCM with a fresh nonce per write, ciphertext in Postgres. */
export function createLocalVault(db: Db, key: Buffer): CredentialVault {
  return {
    backend: 'local',
    async put(ref, value) {
      assertCredentialRef(ref);
      const nonce = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv(ALGORITHM, key, nonce).setAAD(aad(ref));
      const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      const row = { nonce, ciphertext, auth_tag: cipher.getAuthTag(), updated_at: new Date() };
      await db
        .insertInto('credentials')
        .values({ workspace_id: ref.workspaceId, credential_id: ref.credentialId, ...row })
        .onConflict((oc) => oc.columns(['workspace_id', 'credential_id']).doUpdateSet(row))
        .execute();
    },
    async get(ref) {
      assertCredentialRef(ref);
      const row = await db
        .selectFrom('credentials')
        .select(['nonce', 'ciphertext', 'auth_tag'])
        .where('workspace_id', '=', ref.workspaceId)
        .where('credential_id', '=', ref.credentialId)
        .executeTakeFirst();
      if (!row) return null;
      const decipher = crypto.createDecipheriv(ALGORITHM, key, row.nonce).setAAD(aad(ref));
      decipher.setAuthTag(row.auth_tag);
      return Buffer.concat([decipher.update(row.ciphertext), decipher.final()]).toString('utf8');
    },
    async delete(ref) {
      assertCredentialRef(ref);
      await db
        .deleteFrom('credentials')
        .where('workspace_id', '=', ref.workspaceId)
        .where('credential_id', '=', ref.credentialId)
        .execute();
    },
    async deleteWorkspacePage(workspaceId, limit) {
      assertWorkspaceId(workspaceId);
      const page = db
        .selectFrom('credentials')
        .select('credential_id')
        .where('workspace_id', '=', workspaceId)
        .limit(limit);
      const result = await db
        .deleteFrom('credentials')
        .where('workspace_id', '=', workspaceId)
        .where('credential_id', 'in', page)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
