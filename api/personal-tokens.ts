import { z } from 'zod';
import { findApiTokenExpiry, insertApiTokenWithinLimit } from '../db/api-token.repository';
import type { Db } from '../db/database';
import { LIMITS } from '../domain/limits';
import type { TokenMaxDays } from '../domain/tenancy/token-lifetime';
import { generateToken } from '../lib/api-tokens';
import type { AuthContext } from './auth';
import { personalExpiry, tokenSummaryJson, tooManyTokens } from './token-input';

/** Why a service token is refused where only a person's token will do. */
export const NO_PERSONAL_TOKENS = 'service tokens have no personal tokens';

/** A personal token as its creation answers it: the token itself, shown this once. */
export const createdTokenJson = z.object({ ...tokenSummaryJson, token: z.string() });

/** Whose a new personal token is, where it acts (`scope`: there only), the token that minted it, its name and expiry. */
export interface PersonalTokenSpec {
  userId: string;
  workspaceId: string;
  scope: string | null;
  mintedBy: string | null;
  name: string;
  expiresAt: Date | null;
}

/**
 * When a personal token the caller makes expires: `days` (default and at most TOKEN_MAX_DAYS), and never after the
 * caller's own token when that one is scoped (an invitation passes its expiry on to whatever it makes).
 */
export async function personalExpiryFor(
  db: Db,
  auth: AuthContext,
  days: number | undefined,
  maxDays: TokenMaxDays,
): Promise<Date | null> {
  const cap = auth.scopeWorkspaceId === undefined ? null : await findApiTokenExpiry(db, auth.tokenId);
  return personalExpiry(days, maxDays, cap);
}

/** Creates a personal token within its scope's `activeTokensPerOwner` (else 422); call inside a transaction. */
export async function createPersonalToken(trx: Db, spec: PersonalTokenSpec): Promise<z.infer<typeof createdTokenJson>> {
  const { token, hash, prefix } = generateToken();
  const outcome = await insertApiTokenWithinLimit(
    trx,
    {
      user_id: spec.userId,
      default_workspace_id: spec.workspaceId,
      name: spec.name,
      token_hash: hash,
      prefix,
      expires_at: spec.expiresAt,
      scope_workspace_id: spec.scope,
      minted_by: spec.mintedBy,
    },
    LIMITS.activeTokensPerOwner,
  );
  if ('full' in outcome) throw tooManyTokens('this user', outcome.full);
  const { id, created_at } = outcome.inserted;
  const expires_at = spec.expiresAt?.toISOString() ?? null;
  return { id, name: spec.name, token, prefix, created_at: created_at.toISOString(), expires_at };
}
