import crypto from 'node:crypto';
import type { Db } from '../db/database';
import { insertApiToken } from '../db/api-token.repository';

/** How a personal token starts. */
export const PERSONAL_TOKEN_PREFIX = 'assay_';
/** How a workspace's service token starts: the api looks it up among service tokens. */
export const SERVICE_TOKEN_PREFIX = 'assay_svc_';

/** A new token: 32 random bytes, shown once; only its SHA-256 hash is stored, and a short prefix to recognise it. */
export function generateToken(kind: string = PERSONAL_TOKEN_PREFIX): { token: string; hash: string; prefix: string } {
  const token = kind + crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token), prefix: token.slice(0, kind.length + 6) };
}

/** The stored form of a token. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/**
 * Issues a personal API token for a user (`scoped`: acting in `workspaceId` only, as an invitation's); the plain token
 * is returned once and never stored.
 */
export async function issueToken(
  db: Db,
  input: { userId: string; workspaceId: string; name: string; expiresAt?: Date | null; scoped?: boolean },
): Promise<{ id: string; token: string }> {
  const { token, hash, prefix } = generateToken();
  const { id } = await insertApiToken(db, {
    user_id: input.userId,
    default_workspace_id: input.workspaceId,
    name: input.name,
    token_hash: hash,
    prefix,
    expires_at: input.expiresAt ?? null,
    scope_workspace_id: input.scoped ? input.workspaceId : null,
  });
  return { id, token };
}
